package com.banhang.gateway.sandbox.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class WebhookFaultSettingsTest {

  @Test
  void noneInjectsNothing() {
    WebhookFaultSettings none = WebhookFaultSettings.NONE;

    assertThat(none.delayProbability()).isZero();
    assertThat(none.duplicateProbability()).isZero();
    assertThat(none.reorderProbability()).isZero();
    assertThat(none.loseProbability()).isZero();
    assertThat(none.earlyProbability()).isZero();
    assertThat(none.seed()).isEqualTo(42);
  }

  @ParameterizedTest
  @ValueSource(doubles = {-0.01, 1.01, Double.NaN, Double.POSITIVE_INFINITY})
  void rejectsEveryProbabilityOutsideZeroToOne(double probability) {
    assertThatThrownBy(() -> new WebhookFaultSettings(probability, 0, 0, 0, 0, 0, 0, 0, 1))
        .isInstanceOf(InvalidFaultSettingsException.class)
        .hasMessageStartingWith("delayProbability:");
    assertThatThrownBy(() -> new WebhookFaultSettings(0, 0, 0, probability, 0, 0, 0, 0, 1))
        .hasMessageStartingWith("duplicateProbability:");
    assertThatThrownBy(() -> new WebhookFaultSettings(0, 0, 0, 0, probability, 0, 0, 0, 1))
        .hasMessageStartingWith("reorderProbability:");
    assertThatThrownBy(() -> new WebhookFaultSettings(0, 0, 0, 0, 0, 0, probability, 0, 1))
        .hasMessageStartingWith("loseProbability:");
    assertThatThrownBy(() -> new WebhookFaultSettings(0, 0, 0, 0, 0, 0, 0, probability, 1))
        .hasMessageStartingWith("earlyProbability:");
  }

  @ParameterizedTest
  @ValueSource(longs = {-1, WebhookFaultSettings.MAX_DELAY_MS + 1})
  void rejectsDelaysAndHoldsOutOfRange(long millis) {
    assertThatThrownBy(() -> new WebhookFaultSettings(0, millis, 600_000, 0, 0, 0, 0, 0, 1))
        .isInstanceOf(InvalidFaultSettingsException.class)
        .hasMessageStartingWith("delayMinMs:");
    assertThatThrownBy(() -> new WebhookFaultSettings(0, 0, millis, 0, 0, 0, 0, 0, 1))
        .hasMessageStartingWith("delayMaxMs:");
    assertThatThrownBy(() -> new WebhookFaultSettings(0, 0, 0, 0, 0, millis, 0, 0, 1))
        .hasMessageStartingWith("reorderMaxHoldMs:");
  }

  @Test
  void acceptsTheWholeRangeFromMillisecondsToTenMinutes() {
    WebhookFaultSettings settings =
        new WebhookFaultSettings(1, 0, WebhookFaultSettings.MAX_DELAY_MS, 1, 1, 1, 1, 1, 0);

    assertThat(settings.delayMaxMs()).isEqualTo(600_000);
  }

  @Test
  void rejectsADelayRangeTheWrongWayRound() {
    assertThatThrownBy(() -> new WebhookFaultSettings(0, 2000, 1000, 0, 0, 0, 0, 0, 1))
        .isInstanceOf(InvalidFaultSettingsException.class)
        .hasMessage("delayMinMs: must not be above delayMaxMs");
  }
}
