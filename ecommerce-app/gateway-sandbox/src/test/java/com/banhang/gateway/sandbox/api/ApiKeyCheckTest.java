package com.banhang.gateway.sandbox.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ApiKeyCheckTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "charges",
        "/charges",
        "charges/ch_1",
        "webhooks/events",
        "/webhooks/events/evt_1/resend",
        "webhooks/resend"
      })
  void theChargesAndTheWebhookReplayAreMerchantApi(String path) {
    assertThat(ApiKeyCheck.isMerchantApi(path)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"faults", "/faults/webhooks", "faults/webhooks", "stats", "/stats"})
  void theTestControlsStayOpen(String path) {
    assertThat(ApiKeyCheck.isMerchantApi(path)).isFalse();
  }
}
