package com.banhang.shop.payments.application;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;

/**
 * The longest a payments.charge request can spend at the gateway, from the Fault Tolerance bounds
 * of the gateway adapter's {@code RetryingGatewayClient.charge} as they run: the annotations'
 * values (the constants below, which those annotations use) overridden by the standard Fault
 * Tolerance properties ({@code <class>/<method>/<Annotation>/<parameter>}, then {@code
 * <class>/<Annotation>/<parameter>}, then {@code <Annotation>/<parameter>}), so the figure follows
 * whatever a deployment configures.
 *
 * <p>The key's lease ({@code idempotency.lease}) is counted from the claim and never renewed
 * (docs/payments.md, "The lease covers the gateway call"): a request still at the gateway when it
 * runs out has its retries answered as an unknown outcome and its key exposed to reconciliation,
 * which may release it while the call still runs. So the lease must be at least this bound plus
 * {@code payments.gateway.lease-margin} (the database work before and after the call); {@link
 * #problem(Config)} says what to set when it is not, for the start-up checks.
 *
 * <p>With {@code @Retry(maxRetries = n, delay = d, jitter = j, maxDuration = m)} and
 * {@code @Timeout(t)}: at most {@code n + 1} tries of {@code t} each with at most {@code d + j}
 * between them, and no new try after {@code m}, whose try then lasts at most {@code t} more: {@code
 * min((n + 1) t + n (d + j), m + d + j + t)}. With the defaults (2, 200 ms, 100 ms, 10 s, 5 s):
 * 15.3 s.
 */
public final class ChargeCallBound {

  public static final String LEASE_PROPERTY = "idempotency.lease";
  public static final String MARGIN_PROPERTY = "payments.gateway.lease-margin";
  static final Duration DEFAULT_LEASE = Duration.ofSeconds(30);
  static final Duration DEFAULT_MARGIN = Duration.ofSeconds(5);

  /** The class and method whose Fault Tolerance properties bound the charge call. */
  public static final String CLASS =
      "com.banhang.shop.payments.infrastructure.gateway.RetryingGatewayClient";

  public static final String METHOD = "charge";

  /** {@code @Timeout} of a try, ms. */
  public static final long TIMEOUT_MS = 5_000;

  /** {@code @Retry}: retries after the first try. */
  public static final int MAX_RETRIES = 2;

  /** {@code @Retry}: delay between tries and its jitter, ms. */
  public static final long DELAY_MS = 200;

  public static final long JITTER_MS = 100;

  /** {@code @Retry}: no new try after this long, ms. */
  public static final long MAX_DURATION_MS = 10_000;

  private ChargeCallBound() {}

  /**
   * The bound of one charge call, or empty when the configuration leaves it unbounded (timeout
   * disabled or zero, or unlimited retries without a maximum duration).
   */
  public static Optional<Duration> of(Config config) {
    boolean faultTolerance =
        config
            .getOptionalValue("MP_Fault_Tolerance_NonFallback_Enabled", String.class)
            .map(String::trim)
            .map(Boolean::parseBoolean)
            .orElse(true);
    if (!faultTolerance || !enabled(config, "Timeout")) {
      return Optional.empty();
    }
    Duration perTry =
        duration(
            config,
            "Timeout",
            "value",
            TIMEOUT_MS,
            unit(config, "Timeout", "unit", ChronoUnit.MILLIS));
    if (perTry.isZero() || perTry.isNegative()) {
      return Optional.empty();
    }
    if (!enabled(config, "Retry")) {
      return Optional.of(perTry);
    }
    long maxRetries = number(config, "Retry", "maxRetries", MAX_RETRIES);
    Duration pause =
        duration(
                config,
                "Retry",
                "delay",
                DELAY_MS,
                unit(config, "Retry", "delayUnit", ChronoUnit.MILLIS))
            .plus(
                duration(
                    config,
                    "Retry",
                    "jitter",
                    JITTER_MS,
                    unit(config, "Retry", "jitterDelayUnit", ChronoUnit.MILLIS)));
    Duration maxDuration =
        duration(
            config,
            "Retry",
            "maxDuration",
            MAX_DURATION_MS,
            unit(config, "Retry", "durationUnit", ChronoUnit.MILLIS));
    Optional<Duration> byTries =
        maxRetries < 0
            ? Optional.empty()
            : Optional.of(perTry.multipliedBy(maxRetries + 1).plus(pause.multipliedBy(maxRetries)));
    Optional<Duration> byDuration =
        maxDuration.isZero() || maxDuration.isNegative()
            ? Optional.empty()
            : Optional.of(maxDuration.plus(pause).plus(perTry));
    if (byTries.isEmpty()) {
      return byDuration;
    }
    if (byDuration.isEmpty()) {
      return byTries;
    }
    return Optional.of(min(byTries.get(), byDuration.get()));
  }

  /** Why the configured lease cannot cover a charge call, with what to set; empty when it can. */
  public static Optional<String> problem(Config config) {
    Duration lease;
    Duration margin;
    Optional<Duration> bound;
    try {
      lease = durationSetting(config, LEASE_PROPERTY).orElse(DEFAULT_LEASE);
      margin = durationSetting(config, MARGIN_PROPERTY).orElse(DEFAULT_MARGIN);
      bound = of(config);
    } catch (RuntimeException malformed) {
      return Optional.of(
          LEASE_PROPERTY
              + " and "
              + MARGIN_PROPERTY
              + " must be ISO-8601 durations such as PT30S, and the Fault Tolerance settings of "
              + CLASS
              + "/"
              + METHOD
              + " numbers and units: "
              + malformed.getMessage());
    }
    if (bound.isEmpty()) {
      return Optional.of(
          "the gateway call of payments.charge is not bounded ("
              + CLASS
              + "/"
              + METHOD
              + ": Timeout disabled or zero, or unlimited retries without maxDuration), so no "
              + LEASE_PROPERTY
              + " can cover it; restore a positive Timeout and a finite Retry");
    }
    Duration needed = bound.get().plus(margin);
    if (lease.compareTo(needed) < 0) {
      return Optional.of(
          "set "
              + LEASE_PROPERTY
              + " (environment variable IDEMPOTENCY_LEASE) to at least "
              + needed
              + ", was "
              + lease
              + ": a payments.charge request may spend up to "
              + bound.get()
              + " at the gateway (the Fault Tolerance Timeout and Retry of "
              + CLASS
              + "/"
              + METHOD
              + ") plus "
              + margin
              + " ("
              + MARGIN_PROPERTY
              + "), and a lease that runs out while it does so makes the live payment look"
              + " abandoned; or shorten those Timeout/Retry settings");
    }
    return Optional.empty();
  }

  private static Optional<Duration> durationSetting(Config config, String name) {
    return config
        .getOptionalValue(name, String.class)
        .map(String::trim)
        .filter(v -> !v.isEmpty())
        .map(Duration::parse);
  }

  private static Optional<String> raw(Config config, String annotation, String parameter) {
    for (String name :
        new String[] {
          CLASS + "/" + METHOD + "/" + annotation + "/" + parameter,
          CLASS + "/" + annotation + "/" + parameter,
          annotation + "/" + parameter
        }) {
      Optional<String> value = config.getOptionalValue(name, String.class).map(String::trim);
      if (value.isPresent() && !value.get().isEmpty()) {
        return value;
      }
    }
    return Optional.empty();
  }

  private static boolean enabled(Config config, String annotation) {
    return raw(config, annotation, "enabled").map(Boolean::parseBoolean).orElse(true);
  }

  private static long number(Config config, String annotation, String parameter, long fallback) {
    return raw(config, annotation, parameter).map(Long::parseLong).orElse(fallback);
  }

  private static ChronoUnit unit(
      Config config, String annotation, String parameter, ChronoUnit fallback) {
    return raw(config, annotation, parameter).map(ChronoUnit::valueOf).orElse(fallback);
  }

  private static Duration duration(
      Config config, String annotation, String parameter, long fallback, ChronoUnit unit) {
    return Duration.of(number(config, annotation, parameter, fallback), unit);
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }
}
