package it.com.banhang.shop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.banhang.storm.StormReport;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** What every storm must leave behind, counted against the gateway's own charges. */
public final class StormInvariants {

  private StormInvariants() {}

  /**
   * No order charged twice; every payment answered captured charged exactly once; no order paid
   * without a charge; no order charged without being paid (a charge that no recorded attempt stands
   * for would leave exactly that); and none of the storm's keys still processing after settling.
   */
  public static void assertHeld(StormReport report) {
    assertThat(report.ordersChargedTwice()).as(report.table()).isZero();
    assertThat(report.capturedNotChargedOnce()).as(report.table()).isZero();
    assertThat(report.paidButNeverCharged()).as(report.table()).isZero();
    assertThat(report.chargedButNotPaid()).as(report.table()).isZero();
    assertThat(report.processingKeysLeft()).as(report.table()).isZero();
  }

  /** Every 5xx the customers got was an RFC 9457 problem with Retry-After, never a bare error. */
  public static void assertEvery5xxAProblemWithRetryAfter(StormReport report) {
    assertThat(report.answers().keySet())
        .as("every 5xx a problem with Retry-After: %s", report.answers())
        .noneMatch(answer -> answer.contains("without Retry-After"))
        .noneMatch(answer -> answer.contains("not a problem"));
  }

  /**
   * Events out after a storm (docs/events.md): once the outbox and the webhook deliveries have
   * drained, the subscriber handled exactly one PaymentCaptured for every payment captured since
   * {@code since}, and none for a payment that was not captured (declined, abandoned, or rolled
   * back with its transaction).
   */
  public static void assertOneCapturedEventPerCapturedPayment(Instant since) {
    await()
        .atMost(Duration.ofSeconds(90))
        .pollInterval(Duration.ofSeconds(1))
        .until(
            () ->
                ShopDatabase.count("SELECT COUNT(*) FROM outbox_event WHERE published_at IS NULL")
                        == 0
                    && ShopDatabase.count(
                            "SELECT COUNT(*) FROM webhook_delivery WHERE status = 'PENDING'")
                        == 0);
    Map<String, Integer> capturedEvents = new HashMap<>();
    for (Object paymentId :
        Subscriber.eventsOfType("com.banhang.shop.PaymentCaptured").getList("data.paymentId")) {
      capturedEvents.merge((String) paymentId, 1, Integer::sum);
    }
    List<String> captured =
        ShopDatabase.texts(
            "SELECT id FROM payment WHERE status = 'CAPTURED' AND created_at >= ?",
            OffsetDateTime.ofInstant(since, ZoneOffset.UTC));
    List<String> notCaptured =
        ShopDatabase.texts(
            "SELECT id FROM payment WHERE status <> 'CAPTURED' AND created_at >= ?",
            OffsetDateTime.ofInstant(since, ZoneOffset.UTC));
    assertThat(captured).as("payments captured during the storm").isNotEmpty();
    for (String payment : captured) {
      assertThat(capturedEvents.getOrDefault(payment, 0))
          .as("PaymentCaptured events of captured payment %s at the subscriber", payment)
          .isEqualTo(1);
    }
    for (String payment : notCaptured) {
      assertThat(capturedEvents.getOrDefault(payment, 0))
          .as("PaymentCaptured events of payment %s, not captured", payment)
          .isZero();
    }
  }

  /**
   * The processor's webhooks after a storm with them on (docs/payments.md, "Webhooks in"): within
   * {@code within}, every event the sandbox created since {@code since} has been delivered (none
   * pending or given up at the sandbox), arrived in {@code gateway_event}, and been processed (none
   * left PENDING); and none was FLAGGED or PARKED: in a storm where every charge is the shop's own,
   * each event either settles its payment or confirms what the payment already says.
   *
   * @return how many events the sandbox created, and how the shop processed them, for the log
   */
  public static String assertWebhooksDrained(Instant since, Duration within) {
    OffsetDateTime from = OffsetDateTime.ofInstant(since, ZoneOffset.UTC);
    await()
        .atMost(within)
        .pollInterval(Duration.ofSeconds(1))
        .until(
            () ->
                !Sandbox.webhookEventStates(since).containsValue("pending")
                    && ShopDatabase.count(
                            "SELECT COUNT(*) FROM gateway_event"
                                + " WHERE status = 'PENDING' AND received_at >= ?",
                            from)
                        == 0);
    Map<String, String> sent = Sandbox.webhookEventStates(since);
    assertThat(sent).as("webhook events the sandbox created during the storm").isNotEmpty();
    assertThat(sent.values())
        .as("webhook events given up by the sandbox: %s", sent)
        .allMatch("delivered"::equals);
    List<String> received =
        ShopDatabase.texts("SELECT event_id FROM gateway_event WHERE received_at >= ?", from);
    assertThat(received)
        .as("events the shop received of those the sandbox sent")
        .containsAll(sent.keySet());
    List<String> unexplained =
        ShopDatabase.texts(
            "SELECT status || ' ' || event_id || ': ' || COALESCE(detail, '') FROM gateway_event"
                + " WHERE status IN ('FLAGGED', 'PARKED', 'PENDING') AND received_at >= ?",
            from);
    assertThat(unexplained).as("events flagged, parked or left pending").isEmpty();
    Map<String, Integer> byStatus = new java.util.TreeMap<>();
    for (String status :
        ShopDatabase.texts("SELECT status FROM gateway_event WHERE received_at >= ?", from)) {
      byStatus.merge(status, 1, Integer::sum);
    }
    long deliveries =
        ShopDatabase.count(
            "SELECT COALESCE(SUM(deliveries), 0) FROM gateway_event WHERE received_at >= ?", from);
    return String.format(
        "webhook events: %d sent by the sandbox, %d received (%d deliveries), processed %s",
        sent.size(), received.size(), deliveries, byStatus);
  }
}
