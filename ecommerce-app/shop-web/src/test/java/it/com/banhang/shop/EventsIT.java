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

  @Test
  void aPaidOrdersEventsArriveOnce_inTheOrderTheyHappened_asCloudEvents() {
    String orderId = Payments.newOrder("alice");
    Response paid = Payments.pay("alice", orderId, newKey(), "pm_card_ok");
    assertThat(paid.statusCode()).as(paid.asString()).isEqualTo(201);
    String paymentId = paid.path("id");

    List<Map<String, Object>> events =
        await()
            .atMost(ARRIVAL)
            .until(() -> Subscriber.eventsAbout(orderId), received -> received.size() >= 2);

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

  private static long outboxRowsMentioning(String text) {
    return ShopDatabase.count(
        "SELECT COUNT(*) FROM outbox_event WHERE type = 'com.banhang.shop.OrderPlaced'"
            + " AND payload LIKE ?",
        "%" + text + "%");
  }
}
