package com.banhang.shop.payments.application;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Reading a charge event from a verified webhook body: all of it, or a reason to park it. */
class ChargeEventTest {

  private static final String BODY =
      """
      {"id":"evt_1","type":"charge.succeeded","createdAt":"2026-12-07T00:00:00Z",
       "data":{"id":"ch_1","status":"succeeded","amount":1250000,"currency":"VND",
               "orderReference":"order-1","paymentMethod":"pm_card_ok",
               "idempotencyKey":"banhang_k","createdAt":"2026-12-07T00:00:00Z"}}""";

  @Test
  void aChargeSucceededBody_isReadWhole() throws Exception {
    ChargeEvent event = ChargeEvent.read(BODY, "evt_1");

    assertThat(event.type()).isEqualTo("charge.succeeded");
    assertThat(event.charge())
        .isEqualTo(
            new PaymentGateway.ChargeDetails(
                "ch_1", true, 1_250_000, "VND", "order-1", "banhang_k"));
  }

  @Test
  void aBodyWhoseIdIsNotTheWebhookId_isRefused() {
    assertThatThrownBy(() -> ChargeEvent.read(BODY, "evt_2"))
        .isInstanceOf(UnreadableChargeEventException.class)
        .hasMessageContaining("webhook-id");
  }

  @Test
  void anUnknownType_isRefused_andListedUnderItsType() {
    String refund = BODY.replace("charge.succeeded", "charge.refunded");

    assertThatThrownBy(() -> ChargeEvent.read(refund, "evt_1"))
        .hasMessageContaining("does not process: charge.refunded");
    assertThat(ChargeEvent.typeOf(refund)).isEqualTo("charge.refunded");
    assertThat(ChargeEvent.typeOf("not json")).isEqualTo("unknown");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "not json",
        "[]",
        "{\"id\":\"evt_1\",\"type\":\"charge.succeeded\"}",
        "{\"id\":\"evt_1\",\"type\":\"charge.succeeded\",\"data\":{\"id\":\"ch_1\",\"status\":\"failed\"}}",
      })
  void anUnreadableBody_isRefused(String body) {
    assertThatThrownBy(() -> ChargeEvent.read(body, "evt_1"))
        .isInstanceOf(UnreadableChargeEventException.class);
  }

  @ParameterizedTest
  @ValueSource(strings = {"12.5", "-1", "\"12\"", "99999999999999999999"})
  void anAmountThatIsNotAWholeNonNegativeNumber_isRefused(String amount) {
    String body = BODY.replace("1250000", amount);

    assertThatThrownBy(() -> ChargeEvent.read(body, "evt_1"))
        .isInstanceOf(UnreadableChargeEventException.class);
  }

  @Test
  void aChargeFailedEventOfADeclinedCharge_isRead_asADecline() throws Exception {
    // The sandbox sends the charge as its charges API shows it: a decline's status is "declined".
    String declined =
        BODY.replace("charge.succeeded", "charge.failed").replace("\"succeeded\"", "\"declined\"");

    ChargeEvent event = ChargeEvent.read(declined, "evt_1");

    assertThat(event.type()).isEqualTo("charge.failed");
    assertThat(event.charge().succeeded()).isFalse();
    assertThat(event.charge().chargeId()).isEqualTo("ch_1");
  }

  @Test
  void aTypeAndAStatusThatDisagree_areUnreadable() {
    String failedButSucceeded = BODY.replace("charge.succeeded", "charge.failed");
    String succeededButDeclined =
        BODY.replace("\"status\":\"succeeded\"", "\"status\":\"declined\"");

    assertThatThrownBy(() -> ChargeEvent.read(failedButSucceeded, "evt_1"))
        .isInstanceOf(UnreadableChargeEventException.class);
    assertThatThrownBy(() -> ChargeEvent.read(succeededButDeclined, "evt_1"))
        .isInstanceOf(UnreadableChargeEventException.class);
  }
}
