package com.banhang.shop.web.deployment;

import com.banhang.idempotency.BodyKeyring;
import com.banhang.shop.payments.application.ChargeCallBound;
import com.banhang.shop.payments.application.GatewayKeys;
import com.banhang.shop.payments.application.InvalidGatewayKeySecretException;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.BeforeBeanDiscovery;
import jakarta.enterprise.inject.spi.Extension;
import java.net.URI;
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
      Set.of(
          "alice-secret",
          "bob-secret",
          "carol-secret",
          "operator-secret",
          "operator2-secret",
          "metrics-secret");

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
