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
}
