package com.banhang.gateway.sandbox.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.banhang.gateway.sandbox.charge.Charge;
import com.banhang.gateway.sandbox.charge.ChargeStatus;
import com.banhang.gateway.sandbox.fault.FaultSettings;
import com.banhang.gateway.sandbox.fault.WebhookFaultSettings;
import com.banhang.gateway.sandbox.webhook.WebhookAttempt;
import com.banhang.gateway.sandbox.webhook.WebhookAttemptKind;
import com.banhang.gateway.sandbox.webhook.WebhookEvent;
import com.banhang.gateway.sandbox.webhook.WebhookEventHistory;
import com.banhang.gateway.sandbox.webhook.WebhookEventState;
import com.banhang.gateway.sandbox.webhook.WebhookEventType;
import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The JSON the API writes, member for member, with the JSON-B implementation Liberty's jsonb-3.0
 * also uses.
 */
class JsonShapesTest {

  private static final Jsonb JSONB = JsonbBuilder.create();

  @AfterAll
  static void close() throws Exception {
    JSONB.close();
  }

  @Test
  void aChargeHidesItsFingerprintAndUsesLowerCaseStatus() {
    Charge charge =
        new Charge(
            "ch_1",
            ChargeStatus.DECLINED,
            1250000,
            "VND",
            "order-1",
            "pm_card_declined",
            "key-1",
            "secret-hash",
            Instant.parse("2026-01-02T03:04:05.678Z"));

    assertThat(JSONB.toJson(ChargeJson.of(charge)))
        .isEqualTo(
            """
                {"id":"ch_1","status":"declined","amount":1250000,"currency":"VND","orderReference":"order-1",\
                "paymentMethod":"pm_card_declined","idempotencyKey":"key-1","createdAt":"2026-01-02T03:04:05.678Z"}""");
  }

  @Test
  void anError() {
    assertThat(JSONB.toJson(new ApiError("no_such_charge", "none")))
        .isEqualTo("{\"error\":\"no_such_charge\",\"message\":\"none\"}");
  }

  @Test
  void statsOfOneOrderAndOfAll() {
    Map<String, Long> byOrder = new LinkedHashMap<>();
    byOrder.put("a", 2L);
    byOrder.put("b", 1L);

    assertThat(JSONB.toJson(new OrderStatsJson("a", 2, 1)))
        .isEqualTo("{\"orderReference\":\"a\",\"succeededCharges\":2,\"declinedCharges\":1}");
    assertThat(JSONB.toJson(new TotalStatsJson(3, 1, byOrder)))
        .isEqualTo(
            "{\"succeededCharges\":3,\"declinedCharges\":1,\"byOrderReference\":{\"a\":2,\"b\":1}}");
  }

  @Test
  void faultSettingsUseTheMemberNamesThatPutAccepts() {
    String json = JSONB.toJson(FaultSettingsJson.of(FaultSettings.NONE));

    assertThat(json)
        .isEqualTo(
            """
                {"latencyMs":0,"slowProbability":0.0,"slowLatencyMs":1000,"latencyPhase":"AFTER_CHARGE",\
                "dropResponseProbability":0.0,"dropMode":"GATEWAY_TIMEOUT","errorBeforeChargeProbability":0.0,\
                "loseRequestProbability":0.0,"seed":42,"faultsOnReplays":false}""");
    assertThat(FaultSettingsReader.read(json, FaultSettings.NONE)).isEqualTo(FaultSettings.NONE);

    FaultSettings losing =
        FaultSettingsReader.read("{\"loseRequestProbability\": 0.25}", FaultSettings.NONE);
    String losingJson = JSONB.toJson(FaultSettingsJson.of(losing));
    assertThat(losingJson)
        .contains("\"errorBeforeChargeProbability\":0.0,\"loseRequestProbability\":0.25,");
    assertThat(FaultSettingsReader.read(losingJson, FaultSettings.NONE)).isEqualTo(losing);
  }

  @Test
  void webhookFaultSettingsUseTheMemberNamesThatPutAccepts() {
    String json = JSONB.toJson(WebhookFaultSettingsJson.of(WebhookFaultSettings.NONE));

    assertThat(json)
        .isEqualTo(
            """
                {"delayProbability":0.0,"delayMinMs":1000,"delayMaxMs":60000,"duplicateProbability":0.0,\
                "reorderProbability":0.0,"reorderMaxHoldMs":60000,"loseProbability":0.0,\
                "earlyProbability":0.0,"seed":42}""");
    assertThat(WebhookFaultSettingsReader.read(json, WebhookFaultSettings.NONE))
        .isEqualTo(WebhookFaultSettings.NONE);
  }

  @Test
  void aWebhookEventWithItsAttemptsLeavesOutWhatHasNoValue() {
    WebhookEvent event =
        new WebhookEvent(
            "evt_1",
            WebhookEventType.CHARGE_FAILED,
            "ch_1",
            "{}",
            Instant.parse("2026-01-02T03:04:05.678Z"),
            WebhookEventState.DELIVERED,
            Instant.parse("2026-01-02T03:04:05.678Z"),
            1,
            false,
            true,
            false,
            false);
    List<WebhookAttempt> attempts =
        List.of(
            new WebhookAttempt(
                "evt_1",
                1,
                WebhookAttemptKind.LOST,
                Instant.parse("2026-01-02T03:04:05.700Z"),
                null,
                "lost",
                0),
            new WebhookAttempt(
                "evt_1",
                2,
                WebhookAttemptKind.DELIVERY,
                Instant.parse("2026-01-02T03:04:06Z"),
                204,
                null,
                12));

    assertThat(JSONB.toJson(WebhookEventJson.of(new WebhookEventHistory(event, attempts))))
        .isEqualTo(
            """
                {"id":"evt_1","type":"charge.failed","chargeId":"ch_1","createdAt":"2026-01-02T03:04:05.678Z",\
                "state":"delivered","attempts":[{"number":1,"kind":"lost","startedAt":"2026-01-02T03:04:05.700Z",\
                "error":"lost","durationMs":0},{"number":2,"kind":"delivery","startedAt":"2026-01-02T03:04:06Z",\
                "statusCode":204,"durationMs":12}]}""");
  }
}
