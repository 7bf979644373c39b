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

/** The bound of a charge call, from the Fault Tolerance settings, and the lease it requires. */
class ChargeCallBoundTest {

  private static final String CHARGE = ChargeCallBound.CLASS + "/charge/";

  private static Config config(Map<String, String> values) {
    Config config = mock(Config.class);
    when(config.getOptionalValue(anyString(), eq(String.class)))
        .thenAnswer(call -> Optional.ofNullable(values.get(call.getArgument(0, String.class))));
    return config;
  }

  @Test
  void theAnnotationsBoundACallAt15Point3Seconds() {
    // Three tries of 5 s with up to 300 ms between them (15.6 s), but no new try after 10 s:
    // 10 s + 0.3 s + 5 s.
    assertThat(ChargeCallBound.of(config(Map.of()))).contains(Duration.ofMillis(15_300));
  }

  @Test
  void theDefaultLeaseOf30SecondsCoversIt() {
    assertThat(ChargeCallBound.problem(config(Map.of()))).isEmpty();
    assertThat(ChargeCallBound.problem(config(Map.of("idempotency.lease", "PT20.3S")))).isEmpty();
  }

  @Test
  void aLeaseShorterThanTheCallPlusTheMarginIsRefusedSayingWhatToSet() {
    Optional<String> problem = ChargeCallBound.problem(config(Map.of("idempotency.lease", "PT5S")));

    assertThat(problem)
        .hasValueSatisfying(
            p ->
                assertThat(p)
                    .contains("idempotency.lease")
                    .contains("IDEMPOTENCY_LEASE")
                    .contains("at least PT20.3S")
                    .contains("was PT5S"));
    assertThat(ChargeCallBound.problem(config(Map.of("idempotency.lease", "PT20.2S")))).isPresent();
  }

  @Test
  void theFaultTolerancePropertiesOfTheMethodTheClassOrAllOverrideTheAnnotations() {
    assertThat(
            ChargeCallBound.of(
                config(
                    Map.of(
                        CHARGE + "Timeout/value",
                        "1000",
                        CHARGE + "Retry/maxRetries",
                        "1",
                        "Retry/delay",
                        "0",
                        ChargeCallBound.CLASS + "/Retry/jitter",
                        "0"))))
        .contains(Duration.ofSeconds(2));
    assertThat(
            ChargeCallBound.problem(
                config(
                    Map.of(
                        "idempotency.lease",
                        "PT5S",
                        "payments.gateway.lease-margin",
                        "PT1S",
                        CHARGE + "Timeout/value",
                        "1",
                        CHARGE + "Timeout/unit",
                        "SECONDS",
                        CHARGE + "Retry/maxRetries",
                        "1"))))
        .isEmpty();
  }

  @Test
  void anUnboundedCallIsRefusedWhateverTheLease() {
    assertThat(
            ChargeCallBound.problem(
                config(Map.of("idempotency.lease", "PT1H", CHARGE + "Timeout/enabled", "false"))))
        .hasValueSatisfying(p -> assertThat(p).contains("not bounded"));
    assertThat(
            ChargeCallBound.of(
                config(
                    Map.of(CHARGE + "Retry/maxRetries", "-1", CHARGE + "Retry/maxDuration", "0"))))
        .isEmpty();
  }

  @Test
  void aMalformedSettingIsAProblemNotACrash() {
    assertThat(ChargeCallBound.problem(config(Map.of("idempotency.lease", "30 seconds"))))
        .hasValueSatisfying(p -> assertThat(p).contains("ISO-8601"));
  }
}
