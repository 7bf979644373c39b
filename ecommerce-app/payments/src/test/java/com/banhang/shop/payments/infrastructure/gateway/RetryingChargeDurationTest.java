package com.banhang.shop.payments.infrastructure.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import com.banhang.shop.payments.application.GatewayCallDuration;
import com.banhang.shop.payments.application.PaymentLease;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.junit.jupiter.api.Test;

/**
 * The longest charge call, from the Fault Tolerance annotations of the method that really calls the
 * gateway and the properties that override them.
 */
class RetryingChargeDurationTest {

  private static final String CHARGE = RetryingGatewayClient.class.getName() + "/charge/";

  private final RetryingChargeDuration duration = new RetryingChargeDuration();

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
    assertThat(duration.longest(config(Map.of()))).contains(Duration.ofMillis(15_300));
  }

  @Test
  void itReadsTheBoundsOfTheMethodThatChargesAndNamesItsProperties() {
    assertThat(RetryingChargeDuration.CHARGE.getDeclaringClass())
        .isEqualTo(RetryingGatewayClient.class);
    assertThat(RetryingChargeDuration.CHARGE.getAnnotation(Timeout.class).value()).isEqualTo(5_000);
    assertThat(RetryingChargeDuration.CHARGE.getAnnotation(Retry.class).maxRetries()).isEqualTo(2);
    assertThat(duration.settings())
        .isEqualTo("com.banhang.shop.payments.infrastructure.gateway.RetryingGatewayClient/charge");
  }

  @Test
  void theFaultTolerancePropertiesOfTheMethodTheClassOrAllOverrideTheAnnotations() {
    assertThat(
            duration.longest(
                config(
                    Map.of(
                        CHARGE + "Timeout/value",
                        "1000",
                        CHARGE + "Retry/maxRetries",
                        "1",
                        "Retry/delay",
                        "0",
                        RetryingGatewayClient.class.getName() + "/Retry/jitter",
                        "0"))))
        .contains(Duration.ofSeconds(2));
    assertThat(
            duration.longest(
                config(
                    Map.of(
                        CHARGE + "Timeout/value",
                        "1",
                        CHARGE + "Timeout/unit",
                        "SECONDS",
                        CHARGE + "Retry/maxRetries",
                        "1"))))
        .contains(Duration.ofMillis(2_300));
  }

  @Test
  void aCallWithoutATimeoutOrWithUnlimitedRetriesIsUnbounded() {
    assertThat(duration.longest(config(Map.of(CHARGE + "Timeout/enabled", "false")))).isEmpty();
    assertThat(duration.longest(config(Map.of("MP_Fault_Tolerance_NonFallback_Enabled", "false"))))
        .isEmpty();
    assertThat(
            duration.longest(
                config(
                    Map.of(CHARGE + "Retry/maxRetries", "-1", CHARGE + "Retry/maxDuration", "0"))))
        .isEmpty();
  }

  @Test
  void theApplicationFindsItAndChecksTheLeaseAgainstIt() {
    assertThat(ServiceLoader.load(GatewayCallDuration.class).findFirst())
        .containsInstanceOf(RetryingChargeDuration.class);
    assertThat(PaymentLease.problem(config(Map.of("idempotency.lease", "PT5S"))))
        .hasValueSatisfying(
            p -> assertThat(p).contains("at least PT20.3S").contains(duration.settings()));
    assertThat(
            PaymentLease.problem(
                config(Map.of("idempotency.lease", "PT1H", CHARGE + "Timeout/enabled", "false"))))
        .hasValueSatisfying(p -> assertThat(p).contains("not bounded"));
  }
}
