package com.banhang.gateway.sandbox.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import com.banhang.gateway.sandbox.charge.Charge;
import com.banhang.gateway.sandbox.charge.ChargeStatus;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class WebhookEventsTest {

  static final Charge CHARGE =
      new Charge(
          "ch_3kT9qLwV0bYxZ2aP7mNcR1sD",
          ChargeStatus.SUCCEEDED,
          1_250_000,
          "VND",
          "order-10063",
          "pm_card_ok",
          "gw-8e03978e",
          "hash",
          Instant.parse("2026-11-30T10:22:16.516Z"));

  @Test
  void theIdIsDerivedFromTheChargeAndTheTypeSoEveryRecordingGetsTheSameOne() {
    String id = WebhookEvents.idFor(WebhookEventType.CHARGE_SUCCEEDED, CHARGE.id());

    assertThat(id).matches("evt_[0-9a-f]{32}");
    assertThat(WebhookEvents.idFor(WebhookEventType.CHARGE_SUCCEEDED, CHARGE.id())).isEqualTo(id);
    // Pinned (SHA-256 of "charge.succeeded\n" and the charge id): an id that changed between
    // versions would look like a new event to a shop that handled the old one.
    assertThat(id).isEqualTo("evt_bdb735019a2207a5f6efdecc2ac19b04");
  }

  @Test
  void anotherChargeOrAnotherTypeGetsAnotherId() {
    String id = WebhookEvents.idFor(WebhookEventType.CHARGE_SUCCEEDED, CHARGE.id());

    assertThat(WebhookEvents.idFor(WebhookEventType.CHARGE_SUCCEEDED, "ch_other")).isNotEqualTo(id);
    assertThat(WebhookEvents.idFor(WebhookEventType.CHARGE_FAILED, CHARGE.id())).isNotEqualTo(id);
  }

  @Test
  void theBodyCarriesTheEventAndTheChargeWithTheShopsKeyAndOrder() {
    String id = WebhookEvents.idFor(WebhookEventType.CHARGE_SUCCEEDED, CHARGE.id());

    JsonObject body =
        Json.createReader(
                new StringReader(
                    WebhookEvents.payload(
                        id, WebhookEventType.CHARGE_SUCCEEDED, CHARGE, CHARGE.createdAt())))
            .readObject();

    assertThat(body.getString("id")).isEqualTo(id);
    assertThat(body.getString("type")).isEqualTo("charge.succeeded");
    assertThat(body.getString("createdAt")).isEqualTo("2026-11-30T10:22:16.516Z");
    JsonObject data = body.getJsonObject("data");
    assertThat(data.getString("id")).isEqualTo(CHARGE.id());
    assertThat(data.getString("status")).isEqualTo("succeeded");
    assertThat(data.getJsonNumber("amount").longValueExact()).isEqualTo(1_250_000);
    assertThat(data.getString("currency")).isEqualTo("VND");
    assertThat(data.getString("orderReference")).isEqualTo("order-10063");
    assertThat(data.getString("idempotencyKey")).isEqualTo("gw-8e03978e");
    assertThat(data.getString("paymentMethod")).isEqualTo("pm_card_ok");
  }

  @Test
  void aDeclineIsAChargeFailedEvent() {
    assertThat(WebhookEventType.of(ChargeStatus.DECLINED))
        .isEqualTo(WebhookEventType.CHARGE_FAILED);
    assertThat(WebhookEventType.of(ChargeStatus.SUCCEEDED))
        .isEqualTo(WebhookEventType.CHARGE_SUCCEEDED);
    assertThat(WebhookEventType.CHARGE_FAILED.wireName()).isEqualTo("charge.failed");
  }
}
