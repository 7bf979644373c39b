package com.banhang.gateway.sandbox.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FaultSettingsTest {

  private static FaultSettings withProbability(double probability) {
    return new FaultSettings(
        0, probability, 0, LatencyPhase.AFTER_CHARGE, 0, DropMode.RESET, 0, 0, 1, false);
  }

  @Test
  void noneInjectsNothing() {
    assertThat(FaultSettings.NONE.latencyMs()).isZero();
    assertThat(FaultSettings.NONE.slowProbability()).isZero();
    assertThat(FaultSettings.NONE.slowLatencyMs()).isEqualTo(1000);
    assertThat(FaultSettings.NONE.latencyPhase()).isEqualTo(LatencyPhase.AFTER_CHARGE);
    assertThat(FaultSettings.NONE.dropResponseProbability()).isZero();
    assertThat(FaultSettings.NONE.dropMode()).isEqualTo(DropMode.GATEWAY_TIMEOUT);
    assertThat(FaultSettings.NONE.errorBeforeChargeProbability()).isZero();
    assertThat(FaultSettings.NONE.loseRequestProbability()).isZero();
    assertThat(FaultSettings.NONE.seed()).isEqualTo(42);
    assertThat(FaultSettings.NONE.faultsOnReplays()).isFalse();
  }

  @ParameterizedTest
  @ValueSource(doubles = {0.0, 0.25, 1.0})
  void acceptsProbabilitiesFromZeroToOne(double probability) {
    assertThat(withProbability(probability).slowProbability()).isEqualTo(probability);
  }

  @ParameterizedTest
  @ValueSource(doubles = {-0.01, 1.01, Double.NaN, Double.POSITIVE_INFINITY})
  void rejectsProbabilitiesOutsideZeroToOne(double probability) {
    assertThatThrownBy(() -> withProbability(probability))
        .isInstanceOf(InvalidFaultSettingsException.class)
        .hasMessageContaining("slowProbability");
  }

  @ParameterizedTest
  @ValueSource(doubles = {-0.01, 1.01, Double.NaN, Double.NEGATIVE_INFINITY})
  void rejectsALoseRequestProbabilityOutsideZeroToOne(double probability) {
    assertThatThrownBy(
            () ->
                new FaultSettings(
                    0,
                    0,
                    0,
                    LatencyPhase.AFTER_CHARGE,
                    0,
                    DropMode.RESET,
                    0,
                    probability,
                    1,
                    false))
        .isInstanceOf(InvalidFaultSettingsException.class)
        .hasMessageContaining("loseRequestProbability");
  }

  @Test
  void acceptsALoseRequestProbabilityFromZeroToOne() {
    assertThat(
            new FaultSettings(
                    0, 0, 0, LatencyPhase.AFTER_CHARGE, 0, DropMode.RESET, 0, 1.0, 1, false)
                .loseRequestProbability())
        .isEqualTo(1.0);
  }

  @Test
  void rejectsNegativeAndHugeLatencies() {
    assertThatThrownBy(
            () ->
                new FaultSettings(
                    -1, 0, 0, LatencyPhase.AFTER_CHARGE, 0, DropMode.RESET, 0, 0, 1, false))
        .hasMessageContaining("latencyMs");
    assertThatThrownBy(
            () ->
                new FaultSettings(
                    0,
                    0,
                    FaultSettings.MAX_LATENCY_MS + 1,
                    LatencyPhase.AFTER_CHARGE,
                    0,
                    DropMode.RESET,
                    0,
                    0,
                    1,
                    false))
        .hasMessageContaining("slowLatencyMs");
  }

  @Test
  void rejectsMissingPhaseOrMode() {
    assertThatThrownBy(() -> new FaultSettings(0, 0, 0, null, 0, DropMode.RESET, 0, 0, 1, false))
        .hasMessageContaining("latencyPhase");
    assertThatThrownBy(
            () -> new FaultSettings(0, 0, 0, LatencyPhase.AFTER_CHARGE, 0, null, 0, 0, 1, false))
        .hasMessageContaining("dropMode");
  }
}
