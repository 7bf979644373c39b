package com.banhang.gateway.sandbox.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.banhang.gateway.sandbox.charge.InvalidRequestException;
import com.banhang.gateway.sandbox.fault.WebhookFaultSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class WebhookFaultSettingsReaderTest {

  /** Configured defaults unlike the built-in ones, to see which a missing member takes. */
  private static final WebhookFaultSettings DEFAULTS =
      new WebhookFaultSettings(0.1, 100, 200, 0.2, 0.3, 300, 0.4, 0.5, 7);

  @Test
  void readsEveryMember() {
    WebhookFaultSettings settings =
        WebhookFaultSettingsReader.read(
            """
            {"delayProbability": 1, "delayMinMs": 5, "delayMaxMs": 120000, "duplicateProbability": 0.25,
             "reorderProbability": 0.5, "reorderMaxHoldMs": 2000, "loseProbability": 0.75,
             "earlyProbability": 0, "seed": -3}""",
            DEFAULTS);

    assertThat(settings)
        .isEqualTo(new WebhookFaultSettings(1, 5, 120_000, 0.25, 0.5, 2000, 0.75, 0, -3));
  }

  @Test
  void membersLeftOutOrNullTakeTheConfiguredDefaults() {
    assertThat(WebhookFaultSettingsReader.read("{}", DEFAULTS)).isEqualTo(DEFAULTS);
    assertThat(
            WebhookFaultSettingsReader.read("{\"seed\": null, \"loseProbability\": 1}", DEFAULTS))
        .isEqualTo(new WebhookFaultSettings(0.1, 100, 200, 0.2, 0.3, 300, 1, 0.5, 7));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"lostProbability\": 1}",
        "{\"loseprobability\": 1}",
        "{\"loseProbability\": 1.5}",
        "{\"loseProbability\": \"1\"}",
        "{\"duplicateProbability\": true}",
        "{\"earlyProbability\": -0.1}",
        "{\"delayMinMs\": 1.5}",
        "{\"delayMaxMs\": 600001}",
        "{\"delayMinMs\": 300, \"delayMaxMs\": 200}",
        "{\"reorderMaxHoldMs\": -1}",
        "{\"seed\": \"42\"}",
        "{\"seed\": 99999999999999999999}",
        "[]",
        "nonsense",
        ""
      })
  void refusesUnknownMistypedAndOutOfRangeMembers(String body) {
    assertThatThrownBy(() -> WebhookFaultSettingsReader.read(body, DEFAULTS))
        .isInstanceOfSatisfying(
            InvalidRequestException.class,
            e -> assertThat(e.errorCode()).isEqualTo("invalid_faults"));
  }

  @Test
  void namesTheMemberThatIsWrong() {
    assertThatThrownBy(() -> WebhookFaultSettingsReader.read("{\"delayMaxMs\": -5}", DEFAULTS))
        .hasMessageStartingWith("delayMaxMs:");
    assertThatThrownBy(() -> WebhookFaultSettingsReader.read("{\"typo\": 1}", DEFAULTS))
        .hasMessageContaining("unknown member typo");
  }
}
