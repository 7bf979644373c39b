package com.banhang.gateway.sandbox.charge;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ChargeFingerprintTest {

  private static final ChargeRequest REQUEST =
      new ChargeRequest(1000L, "VND", "order-1", "pm_card_ok");

  @Test
  void equalRequestsHaveEqualFingerprints() {
    ChargeRequest same = new ChargeRequest(1000L, "VND", "order-1", "pm_card_ok");

    assertThat(ChargeFingerprint.of(same)).isEqualTo(ChargeFingerprint.of(REQUEST)).hasSize(64);
  }

  @Test
  void everyDefiningFieldChangesTheFingerprint() {
    String original = ChargeFingerprint.of(REQUEST);

    assertThat(ChargeFingerprint.of(new ChargeRequest(1001L, "VND", "order-1", "pm_card_ok")))
        .isNotEqualTo(original);
    assertThat(ChargeFingerprint.of(new ChargeRequest(1000L, "USD", "order-1", "pm_card_ok")))
        .isNotEqualTo(original);
    assertThat(ChargeFingerprint.of(new ChargeRequest(1000L, "VND", "order-2", "pm_card_ok")))
        .isNotEqualTo(original);
    assertThat(ChargeFingerprint.of(new ChargeRequest(1000L, "VND", "order-1", "pm_card_declined")))
        .isNotEqualTo(original);
  }

  @Test
  void fieldBoundariesCannotShift() {
    // With a naive "a|b" join these two would collide.
    ChargeRequest left = new ChargeRequest(1L, "VND", "a\",\"pm_card_x", "pm_card_y");
    ChargeRequest right = new ChargeRequest(1L, "VND", "a", "pm_card_x\",\"pm_card_y");

    assertThat(ChargeFingerprint.of(left)).isNotEqualTo(ChargeFingerprint.of(right));
  }
}
