package it.com.banhang.shop;

import static it.com.banhang.shop.ShopApi.createOrder;
import static it.com.banhang.shop.ShopApi.newKey;
import static it.com.banhang.shop.ShopApi.newSku;
import static it.com.banhang.shop.ShopApi.orderBody;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.restassured.response.Response;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Events out (docs/events.md), end to end on a running shop and its database: the outbox written
 * with the business rows, the relay, the signed webhooks, and the sample subscriber that checks
 * each signature and handles each event once.
 */
class EventsIT {

  private static final Duration ARRIVAL = Duration.ofSeconds(30);

  /**
   * Webhook deliveries are sent on their own, so the two may arrive in either order
   * (docs/events.md, "Signed webhooks"); their sequence numbers say which happened first, as a
   * subscriber orders them.
   */
  @Test
  void aPaidOrdersEventsArriveOnce_numberedInTheOrderTheyHappened_asCloudEvents() {
    String orderId = Payments.newOrder("alice");
    Response paid = Payments.pay("alice", orderId, newKey(), "pm_card_ok");
    assertThat(paid.statusCode()).as(paid.asString()).isEqualTo(201);
    String paymentId = paid.path("id");

    List<Map<String, Object>> events =
        await()
            .atMost(ARRIVAL)
            .until(() -> Subscriber.eventsAbout(orderId), received -> received.size() >= 2);

    events =
        events.stream()
            .sorted(
                java.util.Comparator.comparingInt(
                    e -> ((Number) e.get("aggregatesequence")).intValue()))
            .toList();
    assertThat(events)
        .extracting(e -> e.get("type"), e -> e.get("aggregatesequence"))
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("com.banhang.shop.OrderPlaced", 1),
            org.assertj.core.groups.Tuple.tuple("com.banhang.shop.PaymentCaptured", 2));
    Map<String, Object> captured = events.get(1);
    assertThat(captured.get("tenantid")).isEqualTo("alice");
    @SuppressWarnings("unchecked")
    Map<String, Object> data = (Map<String, Object>) captured.get("data");
    assertThat(data)
        .containsEntry("paymentId", paymentId)
        .containsEntry("orderId", orderId)
        .containsEntry("currency", "VND")
        .containsEntry("settledBy", "request");
    assertThat(((Number) data.get("amount")).longValue()).isEqualTo(Payments.TOTAL);
  }

  @Test
  void anOrderThatRollsBackAfterItsRowsWereWritten_hasNoEvent_whileOneThatCommitsHasOne() {
    String committedSku = newSku();
    Response committed = createOrder("alice", newKey(), orderBody(committedSku, 1, 1000));
    assertThat(committed.statusCode()).isEqualTo(201);
    Response rolledBack = createOrder("alice", newKey(), orderBody("FAULT-AFTER-WRITE", 1, 1));
    assertThat(rolledBack.statusCode()).isEqualTo(500);

    // The event of the order that committed is in the outbox, and arrives.
    assertThat(outboxRowsMentioning(committedSku)).isEqualTo(1);
    await()
        .atMost(ARRIVAL)
        .until(() -> Subscriber.eventsAbout(committed.path("id")), received -> !received.isEmpty());
    // The one that rolled back wrote its event in the same transaction, and lost it with it.
    assertThat(outboxRowsMentioning("FAULT-AFTER-WRITE")).isZero();
    assertThat(Subscriber.eventsOfType("com.banhang.shop.OrderPlaced").getList("data.lines.sku"))
        .asString()
        .doesNotContain("FAULT-AFTER-WRITE");
  }

  @Test
  void aSubscriberThatFailsThreeTimes_isSentTheSameEventUnderTheSameWebhookId_untilItTakesIt() {
    String sku = newSku();
    Subscriber.failNext(3, 503, sku);
    Response created = createOrder("alice", newKey(), orderBody(sku, 1, 1000));
    assertThat(created.statusCode()).isEqualTo(201);
    String orderId = created.path("id");

    List<Map<String, Object>> events =
        await()
            .atMost(ARRIVAL)
            .until(() -> Subscriber.eventsAbout(orderId), received -> !received.isEmpty());

    String eventId = (String) events.get(0).get("id");
    List<Map<String, Object>> deliveries = Subscriber.deliveries(eventId);
    assertThat(deliveries).extracting(d -> d.get("answered")).containsExactly(503, 503, 503, 204);
    assertThat(deliveries).extracting(d -> d.get("webhookId")).containsOnly(eventId);
    assertThat(deliveries).extracting(d -> d.get("timestamp")).doesNotHaveDuplicates();
    assertThat(Subscriber.eventsAbout(orderId)).hasSize(1);
  }

  @Test
  void aDeliveryThatFailsEveryRetry_isParked_shownToTheOperator_andDeliveredWhenRetried() {
    String sku = newSku();
    // As many failures as the test servers' schedule has attempts (PT0S,PT0.5S,PT1S,PT1S).
    Subscriber.failNext(4, 500, sku);
    Response created = createOrder("alice", newKey(), orderBody(sku, 1, 1000));
    assertThat(created.statusCode()).isEqualTo(201);
    String orderId = created.path("id");
    String eventId =
        await()
            .atMost(ARRIVAL)
            .until(
                () ->
                    ShopDatabase.text(
                        "SELECT e.id FROM outbox_event e JOIN webhook_delivery d"
                            + " ON d.event_id = e.id WHERE e.aggregate_id = ?"
                            + " AND d.status = 'PARKED'",
                        orderId),
                java.util.Objects::nonNull);

    Response parked = ShopApi.as("operator").get("/api/v1/admin/events/parked");
    assertThat(parked.statusCode()).as(parked.asString()).isEqualTo(200);
    List<Map<String, Object>> deliveries = parked.path("deliveries");
    Map<String, Object> ours =
        deliveries.stream()
            .filter(d -> eventId.equals(d.get("eventId")))
            .findFirst()
            .orElseThrow(() -> new AssertionError("not listed: " + parked.asString()));
    assertThat(ours.get("attempts")).isEqualTo(4);
    assertThat(ours.get("lastStatus")).isEqualTo(500);
    assertThat(Subscriber.eventsAbout(orderId)).isEmpty();
    // A customer may not see it.
    assertThat(ShopApi.as("alice").get("/api/v1/admin/events/parked").statusCode()).isEqualTo(403);

    Response retried =
        ShopApi.as("operator")
            .contentType("application/json")
            .post("/api/v1/admin/events/webhook-deliveries/" + ours.get("id") + "/retry");
    assertThat(retried.statusCode()).as(retried.asString()).isEqualTo(200);

    await()
        .atMost(ARRIVAL)
        .until(() -> Subscriber.eventsAbout(orderId), received -> received.size() == 1);
    assertThat(Subscriber.deliveries(eventId))
        .extracting(d -> d.get("answered"))
        .containsExactly(500, 500, 500, 500, 204);
  }

  /**
   * The sample subscriber takes only what the shop signed with its secret, as it was signed, and
   * recently: a changed byte, a stale timestamp and another secret are refused (401) and handled
   * not at all, while the same event correctly signed is handled.
   */
  @Test
  void theSubscriberRefusesAChangedByte_aStaleTimestamp_andAnotherSecret() throws Exception {
    String subject = "forged-" + newSku();
    String id = java.util.UUID.randomUUID().toString();
    String body =
        "{\"specversion\":\"1.0\",\"id\":\""
            + id
            + "\",\"source\":\"urn:banhang:shop\",\"type\":\"com.banhang.shop.OrderPlaced\","
            + "\"subject\":\""
            + subject
            + "\",\"time\":\"2026-12-06T10:15:30Z\",\"aggregatetype\":\"order\","
            + "\"aggregatesequence\":1,\"tenantid\":\"alice\",\"data\":{\"total\":1000}}";
    long now = java.time.Instant.now().getEpochSecond();
    String developmentSecret = "whsec_ZGV2ZWxvcG1lbnQtb25seS13ZWJob29rLXNlY3JldC0w";
    String otherSecret = "whsec_b3RoZXItc2VjcmV0LW9mLWEtZm9yZ2VyLTAwMDAw";

    assertThat(deliver(developmentSecret, id, now, body, body.replace("1000", "9000")))
        .isEqualTo(401);
    assertThat(deliver(developmentSecret, id, now - 600, body, body)).isEqualTo(401);
    assertThat(deliver(otherSecret, id, now, body, body)).isEqualTo(401);
    assertThat(Subscriber.eventsAbout(subject)).isEmpty();

    assertThat(deliver(developmentSecret, id, now, body, body)).isEqualTo(204);
    assertThat(Subscriber.eventsAbout(subject)).hasSize(1);
  }

  /** Signs {@code signed} with {@code secret} and sends {@code sent} to the subscriber. */
  private static int deliver(String secret, String id, long timestamp, String signed, String sent)
      throws Exception {
    String signature = new com.standardwebhooks.Webhook(secret).sign(id, timestamp, signed);
    return io.restassured.RestAssured.given()
        .baseUri(Subscriber.URL)
        .header("webhook-id", id)
        .header("webhook-timestamp", String.valueOf(timestamp))
        .header("webhook-signature", signature)
        .contentType("application/json")
        .body(sent)
        .post("/webhooks")
        .statusCode();
  }

  private static long outboxRowsMentioning(String text) {
    return ShopDatabase.count(
        "SELECT COUNT(*) FROM outbox_event WHERE type = 'com.banhang.shop.OrderPlaced'"
            + " AND payload LIKE ?",
        "%" + text + "%");
  }
}
