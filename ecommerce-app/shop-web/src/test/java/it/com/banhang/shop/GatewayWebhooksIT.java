package it.com.banhang.shop;

import static it.com.banhang.shop.Payments.newOrder;
import static it.com.banhang.shop.Payments.pay;
import static it.com.banhang.shop.ShopApi.newKey;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The processor's webhooks in (docs/payments.md, "Webhooks in"), end to end: the sandbox's signed
 * events, delivered late, twice, early or forged, settle an unknown outcome within seconds through
 * reconciliation's fenced path, confirm what the shop recorded, and never apply what contradicts
 * it. Not {@link SameOnEveryDatabase}: the events' table, its once-per-event key and the settlement
 * it commits are the store's own SQL, proved on each database.
 *
 * <p>The test servers reconcile only keys older than 60 s ({@code
 * payments.reconciliation.min-age}): a key settled within seconds by the actor {@code
 * gateway-webhook} was settled by its webhook.
 */
class GatewayWebhooksIT {

  private static final String CHARGE = "payments.charge";

  /** Well under reconciliation's 60 s: the webhook, not the schedule, settles. */
  private static final Duration SOON = Duration.ofSeconds(15);

  @BeforeAll
  static void enableWebhooks() {
    Sandbox.noWebhookFaults();
    Sandbox.webhookEndpoint(true);
  }

  @AfterAll
  static void disableWebhooks() {
    Sandbox.webhookEndpoint(false);
    Sandbox.noWebhookFaults();
  }

  @AfterEach
  void noFaults() {
    Sandbox.noFaults();
    Sandbox.noWebhookFaults();
  }

  /**
   * An unknown outcome whose charge's event arrives five times at once (sandbox resends), among the
   * resends of an older event (the charge.failed of an earlier declined payment): one payment
   * captured, its key completed by the webhook long before reconciliation could, one charge, the
   * event kept once with its five deliveries, the older one unchanged.
   */
  @Test
  void anUnknownOutcome_settledByItsEventDeliveredFiveTimes_amongAnOlderEvent_once()
      throws Exception {
    Instant start = Instant.now().minusSeconds(1);
    // The older event: a declined payment's charge.failed, delivered and confirmed.
    String declinedOrder = newOrder("alice");
    String declinedKey = newKey();
    assertThat(pay("alice", declinedOrder, declinedKey, "pm_card_declined").statusCode())
        .isEqualTo(402);
    String declinedGatewayKey = gatewayKey(declinedKey);
    String older =
        GatewayWebhooks.await(
            () ->
                ShopDatabase.text(
                    "SELECT event_id FROM gateway_event WHERE gateway_key = ?", declinedGatewayKey),
            id -> id != null,
            SOON,
            "the declined payment's event");
    assertThat(GatewayWebhooks.awaitProcessed(older, SOON)).isEqualTo("CONFIRMED");

    // The payment: charged, every answer lost; its event held back by the sandbox (10 min).
    String orderId = newOrder("alice");
    String key = newKey();
    Sandbox.webhookFaults("{\"delayProbability\":1,\"delayMinMs\":600000,\"delayMaxMs\":600000}");
    Sandbox.faults(
        "{\"dropResponseProbability\":1,\"faultsOnReplays\":true,\"dropMode\":\"GATEWAY_TIMEOUT\"}");
    Response first = pay("alice", orderId, key, "pm_card_ok");
    assertThat(first.statusCode()).as(first.asString()).isEqualTo(504);
    assertThat((String) first.path("type")).endsWith("#payment-outcome-unknown");
    Sandbox.noFaults();
    assertThat(Payments.keyState("alice", key)).startsWith("PROCESSING ");
    String gatewayKey = gatewayKey(key);
    String chargeId = GatewayWebhooks.chargeUnder(gatewayKey).getString("id");
    String event = GatewayWebhooks.eventOfCharge(chargeId, start);
    assertThat(GatewayWebhooks.rows(event)).as("not sent yet").isZero();

    // The seven resends at once, from as many threads: the event's five deliveries race each other
    // (and the older event's two) into gateway_event, where only the key keeps one row.
    long settling = System.nanoTime();
    List<String> burst = List.of(event, older, event, event, older, event, event);
    ExecutorService senders = Executors.newFixedThreadPool(burst.size());
    try {
      CountDownLatch go = new CountDownLatch(1);
      List<Future<Integer>> answers = new ArrayList<>();
      for (String id : burst) {
        answers.add(
            senders.submit(
                () -> {
                  go.await();
                  return GatewayWebhooks.resend(id);
                }));
      }
      go.countDown();
      for (Future<Integer> answer : answers) {
        assertThat(answer.get(30, TimeUnit.SECONDS))
            .as("the shop's answer to a delivery")
            .isEqualTo(204);
      }
    } finally {
      senders.shutdownNow();
    }
    GatewayWebhooks.await(
        () -> Payments.keyState("alice", key), "COMPLETED 201"::equals, SOON, "key completed");
    Duration took = Duration.ofNanos(System.nanoTime() - settling);
    System.out.println("an unknown outcome settled by its webhook in " + took.toMillis() + " ms");
    assertThat(took).isLessThan(SOON);

    assertThat(GatewayWebhooks.awaitProcessed(event, SOON)).isEqualTo("SETTLED");
    assertThat(GatewayWebhooks.column(event, "deliveries")).isEqualTo("5");
    assertThat(GatewayWebhooks.column(event, "charge_id")).isEqualTo(chargeId);
    assertThat(GatewayWebhooks.column(older, "status")).isEqualTo("CONFIRMED");
    assertThat(GatewayWebhooks.column(older, "deliveries")).isEqualTo("3");
    assertThat(paymentStatus(declinedKey)).isEqualTo("DECLINED");

    // One payment, captured by the webhook: not by reconciliation, not twice.
    assertThat(ShopDatabase.texts("SELECT status FROM payment WHERE order_id = ?", orderId))
        .containsExactly("CAPTURED");
    String paymentId = paymentId(key);
    assertThat(GatewayWebhooks.column(event, "payment_id")).isEqualTo(paymentId);
    assertThat(ShopDatabase.text("SELECT status FROM shop_order WHERE id = ?", orderId))
        .isEqualTo("PAID");
    assertThat(timeline(key, "CAPTURED")).containsExactly("gateway-webhook");
    assertThat(timeline(key, "GATEWAY_EVENT")).containsExactly("gateway-webhook");
    assertThat(
            ShopDatabase.count(
                "SELECT COUNT(*) FROM payment_timeline WHERE tenant_id = ? AND idempotency_key = ?"
                    + " AND actor = 'reconciliation'",
                "alice",
                key))
        .isZero();

    // The client's retries get the stored answer, the same every time.
    Response replay = pay("alice", orderId, key, "pm_card_ok");
    Response again = pay("alice", orderId, key, "pm_card_ok");
    assertThat(replay.statusCode()).as(replay.asString()).isEqualTo(201);
    assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
    assertThat((String) replay.path("id")).isEqualTo(paymentId);
    assertThat((String) replay.path("status")).isEqualTo("CAPTURED");
    assertThat(again.statusCode()).isEqualTo(201);
    assertThat(again.asString()).isEqualTo(replay.asString());

    // One charge at the gateway for the order and the key.
    assertThat(Sandbox.charges(orderId)).isEqualTo(1);
    assertThat(GatewayWebhooks.chargeUnder(gatewayKey).getString("id")).isEqualTo(chargeId);
  }

  /**
   * The event reaches the shop before the charge call that caused it has answered: it waits for the
   * payment's own request, which records the payment as usual; the event then confirms it.
   */
  @Test
  void anEventBeforeTheChargeCallAnswers_waitsForTheRequest_thenConfirmsIt() {
    String orderId = newOrder("alice");
    String key = newKey();
    Sandbox.webhookFaults("{\"earlyProbability\":1}");
    // The answer leaves 2.5 s after the charge (the shop's read timeout is 3 s); the event first.
    Sandbox.faults("{\"latencyMs\":2500,\"latencyPhase\":\"AFTER_CHARGE\"}");

    Response paid = pay("alice", orderId, key, "pm_card_ok");
    assertThat(paid.statusCode()).as(paid.asString()).isEqualTo(201);
    assertThat(paid.header("Idempotent-Replayed")).isNull();
    String gatewayKey = gatewayKey(key);
    String event =
        ShopDatabase.text("SELECT event_id FROM gateway_event WHERE gateway_key = ?", gatewayKey);
    assertThat(event).as("the early event was received before the answer").isNotNull();

    assertThat(GatewayWebhooks.awaitProcessed(event, SOON)).isEqualTo("CONFIRMED");
    assertThat(
            ShopDatabase.count(
                "SELECT COUNT(*) FROM gateway_event e, payment_timeline t WHERE e.event_id = ?"
                    + " AND t.tenant_id = ? AND t.idempotency_key = ? AND t.kind = 'CAPTURED'"
                    + " AND e.received_at < t.occurred_at",
                event,
                "alice",
                key))
        .as("the event was kept before the request recorded its payment")
        .isEqualTo(1);
    // Usually 2 or 3: processed at once while the request ran, then after it (timing-dependent).
    System.out.println(
        "an early event, processed " + GatewayWebhooks.column(event, "attempts") + " times");
    assertThat(ShopDatabase.texts("SELECT status FROM payment WHERE order_id = ?", orderId))
        .containsExactly("CAPTURED");
    assertThat(timeline(key, "CAPTURED")).containsExactly("shop");
    assertThat(timeline(key, "GATEWAY_EVENT")).containsExactly("gateway-webhook");
    assertThat(Payments.keyState("alice", key)).isEqualTo("COMPLETED 201");
    assertThat(Sandbox.charges(orderId)).isEqualTo(1);
  }

  /** A signed event for the payment's gateway key but another amount: flagged, never applied. */
  @Test
  void anEventWithAnotherAmount_duringAnUnknownOutcome_isFlagged_andNothingIsApplied() {
    String orderId = newOrder("alice");
    String key = newKey();
    String gatewayKey = unknownOutcomeWithoutCharge(orderId, key);

    String event = GatewayWebhooks.newEventId();
    String body =
        GatewayWebhooks.chargeEvent(
            event,
            "charge.succeeded",
            "ch_other_amount",
            Payments.TOTAL + 1000,
            orderId,
            gatewayKey);
    assertThat(GatewayWebhooks.deliver(event, body).statusCode()).isEqualTo(204);

    assertThat(GatewayWebhooks.awaitProcessed(event, SOON)).isEqualTo("FLAGGED");
    assertThat(GatewayWebhooks.column(event, "detail")).contains("amount");
    assertThat(GatewayWebhooks.column(event, "payment_id")).isEqualTo(paymentId(key));
    assertUnsettled(orderId, key);
    assertThat(timeline(key, "GATEWAY_EVENT")).containsExactly("gateway-webhook");
  }

  /**
   * A success for a payment the shop recorded as declined, and a charge under no gateway key of the
   * shop: both flagged, nothing changed.
   */
  @Test
  void aSuccessForADeclinedPayment_andAChargeOfNoKnownKey_areFlagged() {
    String orderId = newOrder("alice");
    String key = newKey();
    Response declined = pay("alice", orderId, key, "pm_card_declined");
    assertThat(declined.statusCode()).as(declined.asString()).isEqualTo(402);
    String gatewayKey = gatewayKey(key);

    String event = GatewayWebhooks.newEventId();
    String body =
        GatewayWebhooks.chargeEvent(
            event, "charge.succeeded", "ch_forged_success", Payments.TOTAL, orderId, gatewayKey);
    assertThat(GatewayWebhooks.deliver(event, body).statusCode()).isEqualTo(204);
    assertThat(GatewayWebhooks.awaitProcessed(event, SOON)).isEqualTo("FLAGGED");
    assertThat(GatewayWebhooks.column(event, "detail")).contains("contradicts");
    assertThat(paymentStatus(key)).isEqualTo("DECLINED");
    assertThat(ShopDatabase.count("SELECT COUNT(*) FROM payment WHERE order_id = ?", orderId))
        .isEqualTo(1);
    assertThat(ShopDatabase.text("SELECT status FROM shop_order WHERE id = ?", orderId))
        .isNotEqualTo("PAID");
    assertThat(Payments.keyState("alice", key)).isEqualTo("COMPLETED 402");

    String stranger = GatewayWebhooks.newEventId();
    String unknownKey = "banhang_" + stranger.substring(4) + "0123456789abcdef";
    assertThat(
            GatewayWebhooks.deliver(
                    stranger,
                    GatewayWebhooks.chargeEvent(
                        stranger, "charge.succeeded", "ch_stranger", 1000, orderId, unknownKey))
                .statusCode())
        .isEqualTo(204);
    assertThat(GatewayWebhooks.awaitProcessed(stranger, SOON)).isEqualTo("FLAGGED");
    assertThat(GatewayWebhooks.column(stranger, "payment_id")).isNull();
    assertThat(GatewayWebhooks.column(stranger, "detail")).contains("no payment");
    assertThat(ShopDatabase.count("SELECT COUNT(*) FROM payment WHERE gateway_key = ?", unknownKey))
        .isZero();
  }

  /**
   * Deliveries that are not to be trusted, each carrying the one event that would settle the
   * payment (its amount, order and gateway key): refused with the {@code webhook-refused} problem,
   * none kept, the payment unchanged. An event type the shop does not know is kept, parked, and
   * applied not at all. The same event correctly signed, last, settles it: the refusals were for
   * their fault alone.
   */
  @Test
  void untrustedDeliveriesAreRefused_anUnknownTypeIsParked_andOnlyTheSignedEventSettles() {
    String orderId = newOrder("alice");
    String key = newKey();
    String gatewayKey = unknownOutcomeWithoutCharge(orderId, key);
    String event = GatewayWebhooks.newEventId();
    String body =
        GatewayWebhooks.chargeEvent(
            event,
            "charge.succeeded",
            "ch_signed_" + event.substring(4, 12),
            Payments.TOTAL,
            orderId,
            gatewayKey);
    long now = Instant.now().getEpochSecond();

    Map<String, Map<String, String>> refused = new java.util.LinkedHashMap<>();
    refused.put("another secret", headers(event, now, GatewayWebhooks.OTHER_SECRET, body));
    refused.put("six minutes old", headers(event, now - 360, GatewayWebhooks.SECRET, body));
    Map<String, String> good = headers(event, now, GatewayWebhooks.SECRET, body);
    for (String header : List.of("webhook-id", "webhook-timestamp", "webhook-signature")) {
      Map<String, String> without = new HashMap<>(good);
      without.remove(header);
      refused.put("no " + header, without);
    }
    refused.put("no headers", Map.of());
    for (Map.Entry<String, Map<String, String>> c : refused.entrySet()) {
      assertRefused(c.getKey(), GatewayWebhooks.post(c.getValue(), body));
    }
    // One byte changed after signing: the amount.
    String changed =
        body.replace("\"amount\":" + Payments.TOTAL, "\"amount\":" + (Payments.TOTAL + 1));
    assertThat(changed).hasSameSizeAs(body).isNotEqualTo(body);
    assertRefused("one byte changed", GatewayWebhooks.post(good, changed));

    // Over 64 KiB: refused before its signature is read, with the generic 413 problem.
    String oversized = body.replace("\"ch_signed_", "\"" + "x".repeat(66_000) + "ch_signed_");
    HttpResponse<String> tooLarge =
        GatewayWebhooks.post(headers(event, now, GatewayWebhooks.SECRET, oversized), oversized);
    assertThat(tooLarge.statusCode()).as(tooLarge.body()).isEqualTo(413);
    assertThat(tooLarge.headers().firstValue("Content-Type").orElse(""))
        .startsWith("application/problem+json");
    assertThat(JsonPath.from(tooLarge.body()).getString("type"))
        .endsWith("#request-entity-too-large");

    assertThat(GatewayWebhooks.rows(event)).as("nothing kept").isZero();
    assertUnsettled(orderId, key);

    // An event type the shop does not process, correctly signed: kept parked, nothing applied.
    String disputed = GatewayWebhooks.newEventId();
    String disputeBody =
        GatewayWebhooks.chargeEvent(
                disputed, "charge.succeeded", "ch_disputed", Payments.TOTAL, orderId, gatewayKey)
            .replace("charge.succeeded", "charge.dispute.created");
    assertThat(GatewayWebhooks.deliver(disputed, disputeBody).statusCode()).isEqualTo(204);
    assertThat(GatewayWebhooks.column(disputed, "status")).isEqualTo("PARKED");
    assertThat(GatewayWebhooks.column(disputed, "event_type")).isEqualTo("charge.dispute.created");
    assertUnsettled(orderId, key);
    assertThat(timeline(key, "GATEWAY_EVENT")).isEmpty();

    // The control: the same event, signed now, settles the payment.
    assertThat(GatewayWebhooks.deliver(event, body).statusCode()).isEqualTo(204);
    assertThat(GatewayWebhooks.awaitProcessed(event, SOON)).isEqualTo("SETTLED");
    assertThat(paymentStatus(key)).isEqualTo("CAPTURED");
    assertThat(Payments.keyState("alice", key)).isEqualTo("COMPLETED 201");
    assertThat(GatewayWebhooks.column(disputed, "status")).isEqualTo("PARKED");
  }

  // ------------------------------------------------------------------ helpers

  private static Map<String, String> headers(
      String id, long timestamp, String secret, String body) {
    return Map.of(
        "webhook-id", id,
        "webhook-timestamp", Long.toString(timestamp),
        "webhook-signature", GatewayWebhooks.sign(secret, id, timestamp, body));
  }

  private static void assertRefused(String what, HttpResponse<String> answer) {
    assertThat(answer.statusCode()).as("%s: %s", what, answer.body()).isEqualTo(400);
    assertThat(answer.headers().firstValue("Content-Type").orElse(""))
        .as(what)
        .startsWith("application/problem+json");
    JsonPath problem = JsonPath.from(answer.body());
    assertThat(problem.getString("type")).as(what).endsWith("#webhook-refused");
    assertThat(problem.getInt("status")).as(what).isEqualTo(400);
    assertThat(problem.getString("detail")).as(what).isNotBlank().doesNotContain("whsec_");
    System.out.println("webhook refused, " + what + ": " + problem.getString("detail"));
  }

  /**
   * A payment whose request was lost before the processor: unknown outcome, no charge, no event.
   */
  private static String unknownOutcomeWithoutCharge(String orderId, String key) {
    Sandbox.faults("{\"loseRequestProbability\":1,\"dropMode\":\"GATEWAY_TIMEOUT\"}");
    Response first = pay("alice", orderId, key, "pm_card_ok");
    Sandbox.noFaults();
    assertThat(first.statusCode()).as(first.asString()).isEqualTo(504);
    assertThat(Sandbox.charges(orderId)).isZero();
    assertThat(Payments.keyState("alice", key)).startsWith("PROCESSING ");
    return gatewayKey(key);
  }

  /** Nothing recorded: the payment pending, its key processing, the order unpaid, retries wait. */
  private static void assertUnsettled(String orderId, String key) {
    assertThat(paymentStatus(key)).isEqualTo("PENDING");
    assertThat(Payments.keyState("alice", key)).startsWith("PROCESSING ");
    assertThat(ShopDatabase.text("SELECT status FROM shop_order WHERE id = ?", orderId))
        .isNotEqualTo("PAID");
    Response retry = pay("alice", orderId, key, "pm_card_ok");
    assertThat(retry.statusCode()).as(retry.asString()).isEqualTo(409);
  }

  private static String gatewayKey(String key) {
    return ShopDatabase.text(
        "SELECT gateway_key FROM payment WHERE tenant_id = ? AND idempotency_key = ?",
        "alice",
        key);
  }

  private static String paymentId(String key) {
    return ShopDatabase.text(
        "SELECT id FROM payment WHERE tenant_id = ? AND idempotency_key = ?", "alice", key);
  }

  private static String paymentStatus(String key) {
    return ShopDatabase.text(
        "SELECT status FROM payment WHERE tenant_id = ? AND idempotency_key = ?", "alice", key);
  }

  /** The actors of the key's timeline entries of one kind, in the order written. */
  private static List<String> timeline(String key, String kind) {
    return ShopDatabase.texts(
        "SELECT actor FROM payment_timeline WHERE tenant_id = ? AND idempotency_key = ?"
            + " AND kind = ? ORDER BY id",
        "alice",
        key,
        kind);
  }
}
