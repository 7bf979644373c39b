package com.banhang.shop.web.deployment;

import com.banhang.idempotency.BodyKeyring;
import com.banhang.shop.payments.application.ChargeCallBound;
import com.banhang.shop.payments.application.GatewayKeys;
import com.banhang.shop.payments.application.InvalidGatewayKeySecretException;
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
 * supplies public development values. Those values are refused in production.
 */
public class DeploymentChecks implements Extension {

  private static final Logger LOG = Logger.getLogger(DeploymentChecks.class.getName());

  static final String PROFILE = "shop.profile";
  static final String DEVELOPMENT = "development";

  /** The development passwords published in the README: never accepted in production. */
  private static final Set<String> DEVELOPMENT_PASSWORDS =
      Set.of("alice-secret", "bob-secret", "carol-secret", "operator-secret");

  private static final int MIN_PASSWORD_LENGTH = 12;

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
              + " plain HTTP. Never use this profile on a server others can reach.");
    }
  }

  static boolean isDevelopment(Config config) {
    return DEVELOPMENT.equals(config.getOptionalValue(PROFILE, String.class).orElse("production"));
  }

  /** Every reason not to start, in the order an operator would fix them; empty when all is set. */
  static List<String> problems(Config config) {
    boolean production = !isDevelopment(config);
    List<String> problems = new ArrayList<>();

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

    // The key's lease is never renewed: it must outlast the bounded gateway call of a payment.
    ChargeCallBound.problem(config).ifPresent(problems::add);

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

    if ("sqlserver".equals(value(config, "shop.db").orElse(""))
        && value(config, "SQLSERVER_JDBC_URL").isEmpty()) {
      problems.add(
          required(
              "SQLSERVER_JDBC_URL",
              "SQLSERVER_JDBC_URL",
              "the SQL Server JDBC URL (shop.db=sqlserver)"));
    }
    return problems;
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
