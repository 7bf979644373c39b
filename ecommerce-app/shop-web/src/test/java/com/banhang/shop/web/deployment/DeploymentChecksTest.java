package com.banhang.shop.web.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigValue;
import org.eclipse.microprofile.config.spi.ConfigSource;
import org.eclipse.microprofile.config.spi.Converter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeploymentChecksTest {

  private static final String SECRET = "c2VydmVyLXNlY3JldC1mb3ItdGVzdHMtMDEyMzQ1Njc4OQ==";

  /** Everything a production deployment needs, with values that pass. */
  private static Map<String, String> production() {
    Map<String, String> settings = new HashMap<>();
    settings.put("gateway/mp-rest/url", "https://gateway.example.com");
    settings.put("payments.gateway-key-secret", SECRET);
    settings.put("idempotency.body-keys", "k1:MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=");
    settings.put(
        "shop.security.required-passwords",
        "shop.users.alice.password,shop.users.operator.password");
    settings.put("shop.users.alice.password", "correct horse battery");
    settings.put("shop.users.operator.password", "staple of the operator");
    settings.put("shop.tls.keystore.password", "keystore-password");
    settings.put("shop.db", "postgresql");
    settings.put("shop.postgresql.user", "shop_runtime");
    settings.put("shop.postgresql.password", "a real database password");
    return settings;
  }

  @Test
  void aCompleteProductionConfigurationStarts() {
    assertThat(DeploymentChecks.problems(config(production()))).isEmpty();
  }

  @Test
  void anEmptyConfigurationNamesEveryMissingSettingWithItsEnvironmentVariable() {
    Map<String, String> settings = new HashMap<>();
    settings.put("shop.db", "sqlserver");
    settings.put(
        "shop.security.required-passwords",
        "shop.users.alice.password,shop.users.bob.password,shop.users.operator.password");

    List<String> problems = DeploymentChecks.problems(config(settings));

    assertThat(String.join("\n", problems))
        .contains("GATEWAY_MP_REST_URL")
        .contains("PAYMENTS_GATEWAY_KEY_SECRET")
        .contains("IDEMPOTENCY_BODY_KEYS")
        .contains("SHOP_USERS_ALICE_PASSWORD")
        .contains("SHOP_USERS_BOB_PASSWORD")
        .contains("SHOP_USERS_OPERATOR_PASSWORD")
        .contains("SHOP_TLS_KEYSTORE_PASSWORD")
        .contains("SQLSERVER_JDBC_URL");
    assertThat(problems).hasSize(8);
  }

  @Test
  void aLeaseShorterThanAPaymentsGatewayCallIsRefusedWithWhatToSet() {
    Map<String, String> settings = production();
    settings.put("idempotency.lease", "PT5S");

    assertThat(DeploymentChecks.problems(config(settings)))
        .singleElement()
        .satisfies(p -> assertThat(p).contains("IDEMPOTENCY_LEASE").contains("at least PT20.3S"));
  }

  @Test
  void productionRefusesThePublishedDevelopmentPasswordsAndShortOnes() {
    Map<String, String> settings = production();
    settings.put("shop.users.alice.password", "alice-secret");
    settings.put("shop.users.operator.password", "short");

    assertThat(DeploymentChecks.problems(config(settings)))
        .anySatisfy(
            p -> assertThat(p).contains("shop.users.alice.password").contains("development"))
        .anySatisfy(p -> assertThat(p).contains("shop.users.operator.password").contains("12"));
  }

  /** The metrics reader's and the second operator's development passwords are published too. */
  @Test
  void productionRefusesTheMetricsReadersAndSecondOperatorsDevelopmentPasswords() {
    Map<String, String> settings = production();
    settings.put(
        "shop.security.required-passwords",
        "shop.users.alice.password,shop.users.metrics.password,shop.users.operator2.password");
    settings.put("shop.users.metrics.password", "metrics-secret");
    settings.put("shop.users.operator2.password", "operator2-secret");

    assertThat(DeploymentChecks.problems(config(settings)))
        .anySatisfy(
            p -> assertThat(p).contains("shop.users.metrics.password").contains("development"))
        .anySatisfy(
            p -> assertThat(p).contains("shop.users.operator2.password").contains("development"));
  }

  @Test
  void theDevelopmentProfileAcceptsItsOwnPasswordsAndThePlainHttpSandbox() {
    Map<String, String> settings = production();
    settings.put("shop.profile", "development");
    settings.put("shop.users.alice.password", "alice-secret");
    settings.put("shop.users.operator.password", "operator-secret");
    settings.put("gateway/mp-rest/url", "http://localhost:9080/gateway");
    settings.put("http.host", "localhost");

    assertThat(DeploymentChecks.problems(config(settings))).isEmpty();
  }

  @Test
  void productionRefusesTheDevelopmentWebhookSecretAndTheSwitchesThatLiftTheTargetGuard() {
    Map<String, String> settings = production();
    settings.put("events.webhooks.endpoints", "fulfilment, accounting");
    settings.put("events.webhooks.fulfilment.secrets", "whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3");
    settings.put(
        "events.webhooks.accounting.secrets",
        "whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3, whsec_ZGV2ZWxvcG1lbnQtb25seS13ZWJob29rLXNlY3JldC0w");
    settings.put("events.webhooks.allow-http", "true");
    settings.put("events.webhooks.allow-private-targets", "TRUE");

    List<String> problems = DeploymentChecks.problems(config(settings));

    assertThat(problems)
        .hasSize(3)
        .anySatisfy(
            p ->
                assertThat(p)
                    .contains("events.webhooks.accounting.secrets")
                    .contains("development"))
        .anySatisfy(p -> assertThat(p).contains("EVENTS_WEBHOOKS_ALLOW_HTTP"))
        .anySatisfy(p -> assertThat(p).contains("EVENTS_WEBHOOKS_ALLOW_PRIVATE_TARGETS"));

    // The development profile, on loopback, is where they belong.
    settings.put("shop.profile", "development");
    settings.put("http.host", "localhost");
    assertThat(DeploymentChecks.problems(config(settings))).isEmpty();
  }

  @Test
  void theDevelopmentProfileIsRefusedBeyondLoopbackAndEveryProductionCheckApplies() {
    Map<String, String> settings = production();
    settings.put("shop.profile", "development");
    settings.put("shop.users.alice.password", "alice-secret");
    settings.put("gateway/mp-rest/url", "http://gateway.internal/");
    // SHOP_PROFILE=development alone on a deployed server: http.host is server.xml's "*".

    List<String> problems = DeploymentChecks.problems(config(settings));

    assertThat(problems)
        .anySatisfy(p -> assertThat(p).contains("SHOP_PROFILE").contains("loopback"))
        .anySatisfy(
            p -> assertThat(p).contains("shop.users.alice.password").contains("development"))
        .anySatisfy(p -> assertThat(p).contains("https://"));
    settings.put("http.host", "0.0.0.0");
    assertThat(DeploymentChecks.problems(config(settings)))
        .anySatisfy(p -> assertThat(p).contains("http.host=0.0.0.0"));
    settings.put("http.host", "127.0.0.1");
    assertThat(DeploymentChecks.problems(config(settings))).isEmpty();
  }

  @Test
  void productionRefusesEveryPublishedDevelopmentSecret() {
    Map<String, String> settings = production();
    // The values of src/main/liberty/development/profiles/development.xml.
    settings.put(
        "payments.gateway-key-secret",
        "ZGV2ZWxvcG1lbnQtb25seS1nYXRld2F5LWtleS1zZWNyZXQtMDAwMDAwMDA=");
    // Under another key id too: the key itself is what everyone knows.
    settings.put("idempotency.body-keys", "renamed:ZGV2ZWxvcG1lbnQtb25seS1ib2R5LWtleS0wMDAwMDA=");
    settings.put("shop.tls.keystore.password", "development-keystore");
    // Beside a real one, during a rotation: still refused.
    settings.put(
        "payments.gateway.webhooks.secrets",
        "whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3,"
            + "whsec_Z2F0ZXdheS1zYW5kYm94LWRldmVsb3BtZW50LXdlYmhvb2stc2VjcmV0");

    List<String> problems = DeploymentChecks.problems(config(settings));

    assertThat(problems)
        .anySatisfy(
            p -> assertThat(p).contains("PAYMENTS_GATEWAY_KEY_SECRET").contains("published"))
        .anySatisfy(p -> assertThat(p).contains("IDEMPOTENCY_BODY_KEYS").contains("published"))
        .anySatisfy(p -> assertThat(p).contains("SHOP_TLS_KEYSTORE_PASSWORD").contains("published"))
        .anySatisfy(
            p -> assertThat(p).contains("PAYMENTS_GATEWAY_WEBHOOKS_SECRETS").contains("published"))
        .hasSize(4);
  }

  @Test
  void everyDatabaseLoginIsRequiredNoneHasADefault() {
    Map<String, String> postgresql = production();
    postgresql.remove("shop.postgresql.user");
    postgresql.remove("shop.postgresql.password");
    assertThat(String.join("\n", DeploymentChecks.problems(config(postgresql))))
        .contains("SHOP_POSTGRESQL_USER")
        .contains("SHOP_POSTGRESQL_PASSWORD");

    Map<String, String> h2 = production();
    h2.put("shop.db", "h2");
    assertThat(String.join("\n", DeploymentChecks.problems(config(h2))))
        .contains("SHOP_H2_USER")
        .contains("SHOP_H2_PASSWORD");
    h2.put("shop.h2.user", "shop");
    h2.put("shop.h2.password", "an H2 password");
    assertThat(DeploymentChecks.problems(config(h2))).isEmpty();
  }

  @Test
  void productionNeedsAnHttpsGatewayAndARealSecret() {
    Map<String, String> settings = production();
    settings.put("gateway/mp-rest/url", "http://gateway.internal/");
    settings.put("payments.gateway-key-secret", "dG9vLXNob3J0");

    assertThat(DeploymentChecks.problems(config(settings)))
        .anySatisfy(p -> assertThat(p).contains("https://"))
        .anySatisfy(
            p -> assertThat(p).contains("payments.gateway-key-secret").contains("too short"));
  }

  @Test
  void anEmptyPasswordListIsForARegistryOfTheDeployersOwn() {
    Map<String, String> settings = production();
    settings.put("shop.security.required-passwords", "");
    settings.remove("shop.users.alice.password");
    settings.remove("shop.users.operator.password");

    assertThat(DeploymentChecks.problems(config(settings))).isEmpty();
  }

  @Test
  void productionRefusesToTurnOffTheTlsRequirement() {
    Map<String, String> settings = production();
    settings.put("shop.http.require-tls", "false");

    assertThat(DeploymentChecks.problems(config(settings)))
        .singleElement()
        .satisfies(p -> assertThat(p).contains("SHOP_HTTP_REQUIRE_TLS"));

    settings.put("shop.profile", "development");
    settings.put("http.host", "localhost");
    assertThat(DeploymentChecks.problems(config(settings))).isEmpty();
  }

  @Test
  void productionRefusesAKeystoreGeneratedByThisStartOrMissing(@TempDir Path dir) throws Exception {
    Instant start = Instant.now().minusSeconds(60);
    Path supplied = dir.resolve("supplied.p12");
    Files.write(supplied, new byte[] {1});
    Files.setLastModifiedTime(supplied, FileTime.from(start.minusSeconds(3600)));
    Path generated = dir.resolve("generated.p12");
    Files.write(generated, new byte[] {1});
    Map<String, String> settings = production();

    settings.put("shop.tls.keystore", supplied.toString());
    assertThat(DeploymentChecks.keystoreProblem(config(settings), start)).isEmpty();

    settings.put("shop.tls.keystore", generated.toString());
    assertThat(DeploymentChecks.keystoreProblem(config(settings), start))
        .hasValueSatisfying(p -> assertThat(p).contains("generated by this start"));

    settings.put("shop.tls.keystore", dir.resolve("absent.p12").toString());
    assertThat(DeploymentChecks.keystoreProblem(config(settings), start))
        .hasValueSatisfying(p -> assertThat(p).contains("does not exist"));

    settings.put("shop.tls.allow-generated-certificate", "true");
    assertThat(DeploymentChecks.keystoreProblem(config(settings), start)).isEmpty();
    settings.remove("shop.tls.allow-generated-certificate");
    settings.put("shop.profile", "development");
    settings.put("http.host", "localhost");
    assertThat(DeploymentChecks.keystoreProblem(config(settings), start)).isEmpty();
  }

  @Test
  void environmentNamesFollowMicroProfileConfig() {
    assertThat(DeploymentChecks.environmentName("gateway/mp-rest/url"))
        .isEqualTo("GATEWAY_MP_REST_URL");
    assertThat(DeploymentChecks.environmentName("shop.users.bob.password"))
        .isEqualTo("SHOP_USERS_BOB_PASSWORD");
  }

  private static Config config(Map<String, String> values) {
    return new Config() {
      @Override
      public <T> T getValue(String name, Class<T> type) {
        return getOptionalValue(name, type).orElseThrow();
      }

      @Override
      public ConfigValue getConfigValue(String name) {
        throw new UnsupportedOperationException();
      }

      @Override
      public <T> Optional<T> getOptionalValue(String name, Class<T> type) {
        return Optional.ofNullable(values.get(name)).map(type::cast);
      }

      @Override
      public Iterable<String> getPropertyNames() {
        return values.keySet();
      }

      @Override
      public Iterable<ConfigSource> getConfigSources() {
        return List.of();
      }

      @Override
      public <T> Optional<Converter<T>> getConverter(Class<T> type) {
        return Optional.empty();
      }

      @Override
      public <T> T unwrap(Class<T> type) {
        throw new UnsupportedOperationException();
      }
    };
  }
}
