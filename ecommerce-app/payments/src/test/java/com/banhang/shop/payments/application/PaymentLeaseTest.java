package com.banhang.shop.payments.application;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;

/**
 * The lease a payments.charge key needs, against a gateway call of a given longest duration (the
 * adapter's own figure is RetryingChargeDurationTest's).
 */
class PaymentLeaseTest {

  private static final String SETTINGS = "the.Adapter/charge";

  /** A gateway call that lasts at most {@code longest} (empty: unbounded), or fails to say. */
  private static GatewayCallDuration call(Optional<Duration> longest) {
    return new GatewayCallDuration() {
      @Override
      public Optional<Duration> longest(Config config) {
        return longest;
      }

      @Override
      public String settings() {
        return SETTINGS;
      }
    };
  }

  private static final GatewayCallDuration UP_TO_15_3_S =
      call(Optional.of(Duration.ofMillis(15_300)));

  private static Config config(Map<String, String> values) {
    Config config = mock(Config.class);
    when(config.getOptionalValue(anyString(), eq(String.class)))
        .thenAnswer(call -> Optional.ofNullable(values.get(call.getArgument(0, String.class))));
    return config;
  }

  @Test
  void theDefaultLeaseOf30SecondsCoversTheCallPlusTheMargin() {
    assertThat(PaymentLease.problem(config(Map.of()), UP_TO_15_3_S)).isEmpty();
    assertThat(PaymentLease.problem(config(Map.of("idempotency.lease", "PT20.3S")), UP_TO_15_3_S))
        .isEmpty();
  }

  @Test
  void aLeaseShorterThanTheCallPlusTheMarginIsRefusedSayingWhatToSet() {
    Optional<String> problem =
        PaymentLease.problem(config(Map.of("idempotency.lease", "PT5S")), UP_TO_15_3_S);

    assertThat(problem)
        .hasValueSatisfying(
            p ->
                assertThat(p)
                    .contains("idempotency.lease")
                    .contains("IDEMPOTENCY_LEASE")
                    .contains("at least PT20.3S")
                    .contains("was PT5S")
                    .contains(SETTINGS));
    assertThat(PaymentLease.problem(config(Map.of("idempotency.lease", "PT20.2S")), UP_TO_15_3_S))
        .isPresent();
  }

  @Test
  void theMarginIsASetting() {
    Config config =
        config(Map.of("idempotency.lease", "PT16.3S", "payments.gateway.lease-margin", "PT1S"));

    assertThat(PaymentLease.problem(config, UP_TO_15_3_S)).isEmpty();
    assertThat(PaymentLease.problem(config, call(Optional.of(Duration.ofMillis(15_301)))))
        .isPresent();
  }

  @Test
  void anUnboundedCallIsRefusedWhateverTheLease() {
    assertThat(
            PaymentLease.problem(
                config(Map.of("idempotency.lease", "PT1H")), call(Optional.empty())))
        .hasValueSatisfying(p -> assertThat(p).contains("not bounded").contains(SETTINGS));
  }

  @Test
  void aMalformedSettingIsAProblemNotACrash() {
    assertThat(
            PaymentLease.problem(config(Map.of("idempotency.lease", "30 seconds")), UP_TO_15_3_S))
        .hasValueSatisfying(p -> assertThat(p).contains("ISO-8601"));
    GatewayCallDuration unreadable =
        new GatewayCallDuration() {
          @Override
          public Optional<Duration> longest(Config config) {
            throw new NumberFormatException("For input string: \"two\"");
          }

          @Override
          public String settings() {
            return SETTINGS;
          }
        };
    assertThat(PaymentLease.problem(config(Map.of()), unreadable))
        .hasValueSatisfying(p -> assertThat(p).contains("\"two\"").contains(SETTINGS));
  }
}
