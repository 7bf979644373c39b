package com.banhang.shop.payments.infrastructure.gateway;

import com.banhang.shop.payments.application.GatewayCallDuration;
import com.banhang.shop.payments.application.PaymentGateway;
import java.lang.reflect.Method;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;

/**
 * How long one call of {@link RetryingGatewayClient#charge} can last at most, from the Fault
 * Tolerance bounds that end it: that method's own {@code @Timeout} and {@code @Retry}, read from
 * the method itself so that the figure is always the one the interceptors enforce, overridden by
 * the standard Fault Tolerance properties ({@code <class>/<method>/<Annotation>/<parameter>}, then
 * {@code <class>/<Annotation>/<parameter>}, then {@code <Annotation>/<parameter>}), so that it
 * follows whatever a deployment configures. The application checks the key's lease against it
 * ({@code PaymentLease}) and finds it through {@code META-INF/services}.
 *
 * <p>With {@code @Retry(maxRetries = n, delay = d, jitter = j, maxDuration = m)} and
 * {@code @Timeout(t)}: at most {@code n + 1} tries of {@code t} each with at most {@code d + j}
 * between them, and no new try after {@code m}, whose try then lasts at most {@code t} more: {@code
 * min((n + 1) t + n (d + j), m + d + j + t)}. With the annotations' values (2, 200 ms, 100 ms, 10
 * s, 5 s): 15.3 s.
 */
public final class RetryingChargeDuration implements GatewayCallDuration {

  /** The method whose Fault Tolerance bounds end a charge call. */
  static final Method CHARGE;

  static {
    try {
      CHARGE =
          RetryingGatewayClient.class.getMethod(
              "charge",
              PaymentGateway.ChargeRequest.class,
              RetryingGatewayClient.SentRequests.class);
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException("RetryingGatewayClient has no charge method", e);
    }
  }

  /** The prefix of the charge call's Fault Tolerance properties: {@code <class>/<method>}. */
  static final String SETTINGS = RetryingGatewayClient.class.getName() + "/" + CHARGE.getName();

  /** For {@link java.util.ServiceLoader}. */
  public RetryingChargeDuration() {}

  @Override
  public String settings() {
    return SETTINGS;
  }

  @Override
  public Optional<Duration> longest(Config config) {
    Timeout timeout = CHARGE.getAnnotation(Timeout.class);
    Retry retry = CHARGE.getAnnotation(Retry.class);
    boolean faultTolerance =
        config
            .getOptionalValue("MP_Fault_Tolerance_NonFallback_Enabled", String.class)
            .map(String::trim)
            .map(Boolean::parseBoolean)
            .orElse(true);
    if (!faultTolerance || timeout == null || !enabled(config, "Timeout")) {
      return Optional.empty();
    }
    Duration perTry =
        duration(
            config,
            "Timeout",
            "value",
            timeout.value(),
            unit(config, "Timeout", "unit", timeout.unit()));
    if (perTry.isZero() || perTry.isNegative()) {
      return Optional.empty();
    }
    if (retry == null || !enabled(config, "Retry")) {
      return Optional.of(perTry);
    }
    long maxRetries = number(config, "Retry", "maxRetries", retry.maxRetries());
    Duration pause =
        duration(
                config,
                "Retry",
                "delay",
                retry.delay(),
                unit(config, "Retry", "delayUnit", retry.delayUnit()))
            .plus(
                duration(
                    config,
                    "Retry",
                    "jitter",
                    retry.jitter(),
                    unit(config, "Retry", "jitterDelayUnit", retry.jitterDelayUnit())));
    Duration maxDuration =
        duration(
            config,
            "Retry",
            "maxDuration",
            retry.maxDuration(),
            unit(config, "Retry", "durationUnit", retry.durationUnit()));
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

  private static Optional<String> raw(Config config, String annotation, String parameter) {
    for (String name :
        new String[] {
          SETTINGS + "/" + annotation + "/" + parameter,
          RetryingGatewayClient.class.getName() + "/" + annotation + "/" + parameter,
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
