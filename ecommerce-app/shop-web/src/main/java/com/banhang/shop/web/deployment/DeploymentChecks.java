package com.banhang.shop.web.deployment;

import com.banhang.idempotency.BodyKeyring;
import com.banhang.shop.payments.application.GatewayKeys;
import com.banhang.shop.payments.application.InvalidGatewayKeySecretException;
import com.banhang.shop.payments.application.PaymentLease;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.BeforeBeanDiscovery;
import jakarta.enterprise.inject.spi.Extension;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Refuses to start the shop while a setting that a safe deployment needs is missing, before any
 * other start-up work (bean validation, migrations, background jobs) runs: a CDI extension, listed
 * in META-INF/services. The message names every missing setting at once, with the environment
 * variable that sets it (docs/deployment.md).
 *
 * <p>The repository's server configuration is the production one; the README's run command and the
 * test servers add {@code profiles/development.xml} ({@code shop.profile=development}), which
 * supplies public development values. Those values are refused in production, and so is the
 * development profile itself on a server that listens beyond loopback.
 */
public class DeploymentChecks implements Extension {

  private static final Logger LOG = Logger.getLogger(DeploymentChecks.class.getName());

  static final String PROFILE = "shop.profile";
  static final String DEVELOPMENT = "development";

  /** The development passwords published in the README: never accepted in production. */
  private static final Set<String> DEVELOPMENT_PASSWORDS =
      Set.of(
          "alice-secret",
          "bob-secret",
          "carol-secret",
          "operator-secret",
          "operator2-secret",
          "metrics-secret");

  private static final int MIN_PASSWORD_LENGTH = 12;

  /**
   * The other published development secrets (src/main/liberty/development/profiles/
   * development.xml): anyone who read the repository knows them, so production refuses them as it
   * refuses the development passwords.
   */
  private static final String DEVELOPMENT_GATEWAY_KEY_SECRET =
      "ZGV2ZWxvcG1lbnQtb25seS1nYXRld2F5LWtleS1zZWNyZXQtMDAwMDAwMDA=";

  private static final String DEVELOPMENT_BODY_KEY = "ZGV2ZWxvcG1lbnQtb25seS1ib2R5LWtleS0wMDAwMDA=";
  private static final String DEVELOPMENT_KEYSTORE_PASSWORD = "development-keystore";

  /**
   * The gateway sandbox's public webhook secret, which the development profile also verifies the
   * processor's webhooks with (payments.gateway.webhooks.secrets).
   */
  private static final String DEVELOPMENT_SANDBOX_WEBHOOK_SECRET =
      "whsec_Z2F0ZXdheS1zYW5kYm94LWRldmVsb3BtZW50LXdlYmhvb2stc2VjcmV0";

  /** The webhook signing secret of the development profile and its sample subscriber. */
  private static final String DEVELOPMENT_WEBHOOK_SECRET =
      "whsec_ZGV2ZWxvcG1lbnQtb25seS13ZWJob29rLXNlY3JldC0w";

  /** Host names that listen on this machine only; the development profile needs one of them. */
  private static final Set<String> LOOPBACK_HOSTS =
      Set.of("localhost", "127.0.0.1", "::1", "[::1]", "ip6-localhost");

  /**
   * Runs when CDI starts discovering the application's beans, so before CDI validates injection
   * points: a missing setting is reported here, with every other one, instead of as the first
   * injection point that needs it.
   */
  void checkBeforeDiscovery(@Observes BeforeBeanDiscovery discovery) {
    Config config = ConfigProvider.getConfig(DeploymentChecks.class.getClassLoader());
    List<String> missing = problems(config);
    if (!missing.isEmpty()) {
      String message =
          "The shop refuses to start: "
              + missing.size()
              + " setting(s) a safe deployment needs are missing or unsafe (docs/deployment.md):\n  - "
              + String.join("\n  - ", missing);
      LOG.severe(message);
      throw new IllegalStateException(message);
    }
    if (isDevelopment(config)) {
      LOG.warning(
          "shop.profile=development: sandbox gateway, public development passwords and secrets,"
              + " plain HTTP, on loopback only. Never use this profile on a server others can"
              + " reach.");
    }
  }

  /**
   * The development profile counts only on a server that listens on loopback: set anywhere else
   * (SHOP_PROFILE=development on a deployed server), it is refused and every production check
   * applies.
   */
  static boolean isDevelopment(Config config) {
    return asksForDevelopment(config) && listensOnLoopbackOnly(config);
  }

  private static boolean asksForDevelopment(Config config) {
    return DEVELOPMENT.equals(config.getOptionalValue(PROFILE, String.class).orElse("production"));
  }

  private static boolean listensOnLoopbackOnly(Config config) {
    // server.xml's default is every interface.
    String host = value(config, "http.host").orElse("*");
    return LOOPBACK_HOSTS.contains(host.toLowerCase(Locale.ROOT)) || host.startsWith("127.");
  }

  /** Every reason not to start, in the order an operator would fix them; empty when all is set. */
  static List<String> problems(Config config) {
    boolean production = !isDevelopment(config);
    List<String> problems = new ArrayList<>();

    if (asksForDevelopment(config) && production) {
      problems.add(
          "shop.profile=development (environment variable SHOP_PROFILE) is refused on a server"
              + " that listens beyond loopback (http.host="
              + value(config, "http.host").orElse("*")
              + "): it adds public passwords, plain HTTP and a sandbox that marks orders paid"
              + " without money. Remove it; every production check below applies");
    }

    Optional<String> gateway = value(config, "gateway/mp-rest/url");
    if (gateway.isEmpty()) {
      problems.add(
          required("gateway/mp-rest/url", "GATEWAY_MP_REST_URL", "the payment gateway's base URL"));
    } else if (production && !isHttps(gateway.get())) {
      problems.add(
          "gateway/mp-rest/url (GATEWAY_MP_REST_URL) must be an https:// URL in production, was "
              + gateway.get());
    }

    // The contexts that use the secrets validate them; their messages name the property.
    try {
      GatewayKeys.validate(config);
    } catch (InvalidGatewayKeySecretException invalid) {
      problems.add(invalid.getMessage() + " (environment variable PAYMENTS_GATEWAY_KEY_SECRET)");
    }
    try {
      BodyKeyring.validate(config);
    } catch (IllegalStateException invalid) {
      problems.add(
          invalid.getMessage()
              + " (environment variable IDEMPOTENCY_BODY_KEYS: keyId:base64 AES-256 key(s) that"
              + " seal stored responses)");
    }

    if (production) {
      publishedDevelopmentSecrets(config).forEach(problems::add);
      webhookProblems(config).forEach(problems::add);
    }

    // The key's lease is never renewed: it must outlast the bounded gateway call of a payment.
    PaymentLease.problem(config).ifPresent(problems::add);

    for (String name : passwordSettings(config)) {
      Optional<String> password = value(config, name);
      if (password.isEmpty()) {
        problems.add(required(name, environmentName(name), "a user's password"));
      } else if (production && DEVELOPMENT_PASSWORDS.contains(password.get())) {
        problems.add(name + " is a published development password; set a real one");
      } else if (production && password.get().length() < MIN_PASSWORD_LENGTH) {
        problems.add(name + " must have at least " + MIN_PASSWORD_LENGTH + " characters");
      }
    }

    if (value(config, "idempotency.unauthenticated-tenant").isPresent()) {
      problems.add(
          "idempotency.unauthenticated-tenant must not be set: every caller of the shop"
              + " authenticates, and keys are kept per caller");
    }

    if (value(config, "shop.tls.keystore.password").isEmpty()) {
      problems.add(
          required(
              "shop.tls.keystore.password",
              "SHOP_TLS_KEYSTORE_PASSWORD",
              "the password of the TLS keystore (shop.tls.keystore)"));
    }

    // Transport security (docs/security.md): production never accepts credentials over plain
    // HTTP, whatever a deployer turned off to make a proxy work.
    if (production
        && !value(config, "shop.http.require-tls").map(Boolean::parseBoolean).orElse(true)) {
      problems.add(
          "shop.http.require-tls (SHOP_HTTP_REQUIRE_TLS) must not be false in production: behind a"
              + " proxy that terminates TLS, configure remoteIp so that X-Forwarded-Proto counts");
    }
    keystoreProblem(config, serverStart()).ifPresent(problems::add);

    String db = value(config, "shop.db").orElse("");
    if ("postgresql".equals(db)) {
      for (String name : List.of("shop.postgresql.user", "shop.postgresql.password")) {
        if (value(config, name).isEmpty()) {
          problems.add(required(name, environmentName(name), "the PostgreSQL login of the shop"));
        }
      }
    }
    if ("h2".equals(db) && production) {
      for (String name : List.of("shop.h2.user", "shop.h2.password")) {
        if (value(config, name).isEmpty()) {
          problems.add(
              required(name, environmentName(name), "the login of the embedded H2 database"));
        }
      }
    }

    if ("sqlserver".equals(db) && value(config, "SQLSERVER_JDBC_URL").isEmpty()) {
      problems.add(
          required(
              "SQLSERVER_JDBC_URL",
              "SQLSERVER_JDBC_URL",
              "the SQL Server JDBC URL (shop.db=sqlserver)"));
    }
    return problems;
  }

  /**
   * Webhooks in production (docs/events.md, "Signed webhooks"): signed with secrets nobody read in
   * the repository, and sent over HTTPS to public addresses only. The two switches that lift the
   * guard exist for a developer's machine and the tests.
   */
  static List<String> webhookProblems(Config config) {
    List<String> found = new ArrayList<>();
    for (String lift :
        List.of("events.webhooks.allow-http", "events.webhooks.allow-private-targets")) {
      if (value(config, lift).map(Boolean::parseBoolean).orElse(false)) {
        found.add(
            lift
                + " ("
                + environmentName(lift)
                + ") must not be true in production: webhooks go over HTTPS to public addresses"
                + " only, so that a subscriber URL cannot reach inside the shop's network");
      }
    }
    for (String endpoint : value(config, "events.webhooks.endpoints").orElse("").split(",")) {
      String name = "events.webhooks." + endpoint.trim() + ".secrets";
      if (!endpoint.isBlank()
          && value(config, name)
              .filter(secrets -> secrets.contains(DEVELOPMENT_WEBHOOK_SECRET))
              .isPresent()) {
        found.add(
            name
                + " holds the published development signing secret; make one per subscriber:"
                + " echo \"whsec_$(openssl rand -base64 32)\"");
      }
    }
    return found;
  }

  private static List<String> publishedDevelopmentSecrets(Config config) {
    List<String> found = new ArrayList<>();
    if (value(config, "payments.gateway-key-secret")
        .filter(DEVELOPMENT_GATEWAY_KEY_SECRET::equals)
        .isPresent()) {
      found.add(
          "payments.gateway-key-secret (PAYMENTS_GATEWAY_KEY_SECRET) is the published development"
              + " secret; make your own: openssl rand -base64 32");
    }
    Optional<String> bodyKeys = value(config, "idempotency.body-keys");
    if (bodyKeys.isPresent()
        && Arrays.stream(bodyKeys.get().split(","))
            .map(entry -> entry.substring(entry.indexOf(':') + 1).trim())
            .anyMatch(DEVELOPMENT_BODY_KEY::equals)) {
      found.add(
          "idempotency.body-keys (IDEMPOTENCY_BODY_KEYS) holds the published development key;"
              + " make your own: echo \"k1:$(openssl rand -base64 32)\"");
    }
    if (value(config, "payments.gateway.webhooks.secrets")
        .filter(secrets -> secrets.contains(DEVELOPMENT_SANDBOX_WEBHOOK_SECRET))
        .isPresent()) {
      found.add(
          "payments.gateway.webhooks.secrets (PAYMENTS_GATEWAY_WEBHOOKS_SECRETS) holds the gateway"
              + " sandbox's published secret: anyone could sign a webhook that settles a payment;"
              + " use the secret your processor gives you");
    }
    if (value(config, "shop.tls.keystore.password")
        .filter(DEVELOPMENT_KEYSTORE_PASSWORD::equals)
        .isPresent()) {
      found.add(
          "shop.tls.keystore.password (SHOP_TLS_KEYSTORE_PASSWORD) is the published development"
              + " password; protect your keystore with a real one");
    }
    return found;
  }

  /**
   * Refuses, in production, a keystore that this start of the server wrote: without a file at
   * {@code shop.tls.keystore} Liberty silently generates a self-signed certificate that no client
   * should trust. A keystore not there yet counts the same (it is about to be generated). {@code
   * shop.tls.allow-generated-certificate=true} allows it for a smoke test.
   */
  static Optional<String> keystoreProblem(Config config, Instant serverStart) {
    Optional<String> keystore = value(config, "shop.tls.keystore");
    if (isDevelopment(config)
        || keystore.isEmpty()
        || value(config, "shop.tls.allow-generated-certificate")
            .map(Boolean::parseBoolean)
            .orElse(false)) {
      return Optional.empty();
    }
    Path file = Path.of(keystore.get());
    String what =
        " Liberty then serves a self-signed certificate it generated, which clients must not"
            + " trust. Put your certificate in a PKCS #12 keystore there (or point shop.tls.keystore,"
            + " SHOP_TLS_KEYSTORE, at yours); shop.tls.allow-generated-certificate=true allows a"
            + " generated one for a smoke test";
    try {
      // Liberty writes a generated keystore once, at start: a keystore older than this start
      // was supplied. (Java 17 reads no file birth time on Linux; the last modification is it.)
      if (Files.getLastModifiedTime(file).toInstant().isBefore(serverStart)) {
        return Optional.empty();
      }
      return Optional.of(
          "shop.tls.keystore " + file + " was generated by this start of the server." + what);
    } catch (IOException missing) {
      return Optional.of("shop.tls.keystore " + file + " does not exist." + what);
    }
  }

  private static Instant serverStart() {
    return Instant.ofEpochMilli(ManagementFactory.getRuntimeMXBean().getStartTime());
  }

  private static List<String> passwordSettings(Config config) {
    return value(config, "shop.security.required-passwords")
        .map(names -> Arrays.stream(names.split(",")).map(String::trim).filter(n -> !n.isEmpty()))
        .map(names -> names.toList())
        .orElse(List.of());
  }

  private static Optional<String> value(Config config, String name) {
    return config.getOptionalValue(name, String.class).map(String::trim).filter(v -> !v.isEmpty());
  }

  private static boolean isHttps(String url) {
    try {
      return "https".equalsIgnoreCase(URI.create(url).getScheme());
    } catch (IllegalArgumentException malformed) {
      return false;
    }
  }

  private static String required(String name, String env, String what) {
    return "set " + name + " (environment variable " + env + "): " + what;
  }

  /** MicroProfile Config's and Liberty's mapping: non-alphanumerics become _, then upper case. */
  static String environmentName(String name) {
    return name.replaceAll("[^A-Za-z0-9]", "_").toUpperCase(Locale.ROOT);
  }
}
