package com.banhang.shop.payments.application;

import java.time.Duration;
import java.util.Optional;
import java.util.ServiceLoader;
import org.eclipse.microprofile.config.Config;

/**
 * Whether a payments.charge key's lease can cover its request's gateway call, for the start-up
 * checks.
 *
 * <p>The key's lease ({@value #LEASE_PROPERTY}) is counted from the claim and never renewed
 * (docs/payments.md, "The lease covers the gateway call"): a request still at the gateway when it
 * runs out has its retries answered as an unknown outcome and its key exposed to reconciliation,
 * which may release it while the call still runs. So the lease must be at least the longest the
 * gateway's charge call can last ({@link GatewayCallDuration}, which the gateway adapter reports
 * from its Fault Tolerance bounds) plus {@value #MARGIN_PROPERTY}, for the database work before and
 * after the call. {@link #problem(Config)} says what to set when it is not.
 */
public final class PaymentLease {

  public static final String LEASE_PROPERTY = "idempotency.lease";
  public static final String MARGIN_PROPERTY = "payments.gateway.lease-margin";
  static final Duration DEFAULT_LEASE = Duration.ofSeconds(30);
  static final Duration DEFAULT_MARGIN = Duration.ofSeconds(5);

  private PaymentLease() {}

  /**
   * Why the configured lease cannot cover a charge call, with what to set; empty when it can. The
   * duration of the call is the gateway adapter's ({@link GatewayCallDuration}, found through
   * {@link ServiceLoader}).
   */
  public static Optional<String> problem(Config config) {
    Optional<GatewayCallDuration> adapter =
        ServiceLoader.load(GatewayCallDuration.class, GatewayCallDuration.class.getClassLoader())
            .findFirst();
    if (adapter.isEmpty()) {
      return Optional.of(
          "no payment gateway adapter reports how long its charge call can last ("
              + GatewayCallDuration.class.getName()
              + " in META-INF/services), so no "
              + LEASE_PROPERTY
              + " can be checked against it");
    }
    return problem(config, adapter.get());
  }

  /** {@link #problem(Config)} for the given adapter. */
  static Optional<String> problem(Config config, GatewayCallDuration call) {
    Duration lease;
    Duration margin;
    Optional<Duration> bound;
    try {
      lease = durationSetting(config, LEASE_PROPERTY).orElse(DEFAULT_LEASE);
      margin = durationSetting(config, MARGIN_PROPERTY).orElse(DEFAULT_MARGIN);
      bound = call.longest(config);
    } catch (RuntimeException malformed) {
      return Optional.of(
          LEASE_PROPERTY
              + " and "
              + MARGIN_PROPERTY
              + " must be ISO-8601 durations such as PT30S, and the Fault Tolerance settings of "
              + call.settings()
              + " numbers and units: "
              + malformed.getMessage());
    }
    if (bound.isEmpty()) {
      return Optional.of(
          "the gateway call of payments.charge is not bounded ("
              + call.settings()
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
              + call.settings()
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
}
