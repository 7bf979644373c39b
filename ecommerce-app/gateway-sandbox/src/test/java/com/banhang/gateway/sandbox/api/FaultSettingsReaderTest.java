package com.banhang.gateway.sandbox.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.banhang.gateway.sandbox.charge.InvalidRequestException;
import com.banhang.gateway.sandbox.fault.DropMode;
import com.banhang.gateway.sandbox.fault.FaultSettings;
import com.banhang.gateway.sandbox.fault.LatencyPhase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FaultSettingsReaderTest {

  /**
   * Configured defaults that differ from the built-in ones, to see which a missing member takes.
   */
  private static final FaultSettings DEFAULTS =
      new FaultSettings(
          5, 0.1, 200, LatencyPhase.BEFORE_CHARGE, 0.2, DropMode.RESET, 0.3, 0.4, 7, true);

  @Test
  void readsEveryMember() {
    FaultSettings settings =
        FaultSettingsReader.read(
            """
                {"latencyMs": 800, "slowProbability": 0.5, "slowLatencyMs": 3000, "latencyPhase": "AFTER_CHARGE",
                 "dropResponseProbability": 1, "dropMode": "GATEWAY_TIMEOUT", "errorBeforeChargeProbability": 0.25,
                 "loseRequestProbability": 0.75, "seed": -12, "faultsOnReplays": false}""",
            DEFAULTS);

    assertThat(settings)
        .isEqualTo(
            new FaultSettings(
                800,
                0.5,
                3000,
                LatencyPhase.AFTER_CHARGE,
                1.0,
                DropMode.GATEWAY_TIMEOUT,
                0.25,
                0.75,
                -12,
                false));
  }

  @Test
  void membersLeftOutOrNullTakeTheConfiguredDefaults() {
    assertThat(FaultSettingsReader.read("{}", DEFAULTS)).isEqualTo(DEFAULTS);
    assertThat(FaultSettingsReader.read("{\"dropMode\": null, \"latencyMs\": 1}", DEFAULTS))
        .isEqualTo(
            new FaultSettings(
                1, 0.1, 200, LatencyPhase.BEFORE_CHARGE, 0.2, DropMode.RESET, 0.3, 0.4, 7, true));
    assertThat(FaultSettingsReader.read("{\"faultsOnReplays\": null}", DEFAULTS))
        .isEqualTo(DEFAULTS);
    assertThat(FaultSettingsReader.read("{\"loseRequestProbability\": null}", DEFAULTS))
        .isEqualTo(DEFAULTS);
  }

  @Test
  void readsFaultsOnReplaysAsAJsonBoolean() {
    assertThat(
            FaultSettingsReader.read("{\"faultsOnReplays\": true}", FaultSettings.NONE)
                .faultsOnReplays())
        .isTrue();
    assertThat(FaultSettingsReader.read("{\"faultsOnReplays\": false}", DEFAULTS).faultsOnReplays())
        .isFalse();
    assertThat(
            FaultSettingsReader.read(
                "{\"dropResponseProbability\": 1, \"faultsOnReplays\": true}", FaultSettings.NONE))
        .isEqualTo(
            new FaultSettings(
                0,
                0,
                1000,
                LatencyPhase.AFTER_CHARGE,
                1,
                DropMode.GATEWAY_TIMEOUT,
                0,
                0,
                42,
                true));
  }

  @Test
  void readsLoseRequestProbabilityAloneAndKeepsTheOtherDefaults() {
    assertThat(FaultSettingsReader.read("{\"loseRequestProbability\": 1}", FaultSettings.NONE))
        .isEqualTo(
            new FaultSettings(
                0,
                0,
                1000,
                LatencyPhase.AFTER_CHARGE,
                0,
                DropMode.GATEWAY_TIMEOUT,
                0,
                1,
                42,
                false));
    assertThat(
            FaultSettingsReader.read("{\"loseRequestProbability\": 0}", DEFAULTS)
                .loseRequestProbability())
        .isZero();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"latencyMS\": 100}",
        "{\"latencyMs\": \"100\"}",
        "{\"latencyMs\": 1.5}",
        "{\"latencyMs\": -1}",
        "{\"slowProbability\": 1.5}",
        "{\"slowProbability\": \"0.5\"}",
        "{\"loseRequestProbability\": 1.01}",
        "{\"loseRequestProbability\": -0.5}",
        "{\"loseRequestProbability\": \"1\"}",
        "{\"loseRequestProbability\": true}",
        "{\"loserequestprobability\": 1}",
        "{\"dropMode\": \"reset\"}",
        "{\"latencyPhase\": 1}",
        "{\"faultsOnReplays\": \"true\"}",
        "{\"faultsOnReplays\": 1}",
        "{\"faultsOnReplays\": {}}",
        "{\"faultsonreplays\": true}",
        "[]",
        "nonsense",
        ""
      })
  void refusesUnknownMistypedAndOutOfRangeMembers(String body) {
    assertThatThrownBy(() -> FaultSettingsReader.read(body, DEFAULTS))
        .isInstanceOfSatisfying(
            InvalidRequestException.class,
            e -> assertThat(e.errorCode()).isEqualTo("invalid_faults"));
  }
}
