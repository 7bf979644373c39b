package com.banhang.shop.payments.application;

import static org.assertj.core.api.Assertions.assertThat;

import com.banhang.shop.payments.api.TimelineEntry;
import com.banhang.shop.payments.domain.model.Payment;
import java.time.Instant;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** Writing the timeline never fails its caller, and never writes more than a column holds. */
class TimelineTest {

  private final InMemoryTimeline store = new InMemoryTimeline();
  private final Payment payment = Fixtures.pendingPayment();

  @Test
  void anEntryOnItsOwn_whoseCommitFails_isLoggedAndSwallowed() {
    Timeline timeline = InMemoryTimeline.timeline(store);
    timeline.transaction =
        new OneTransaction() {
          @Override
          public <T> T run(Supplier<T> work) {
            work.get();
            throw new IllegalStateException("commit failed");
          }
        };

    timeline.alone(payment, TimelineEntry.Kind.OUTCOME_UNKNOWN, Timeline.SHOP, "lost");
    store.failure = new IllegalStateException("insert failed");
    timeline.alone(payment, TimelineEntry.Kind.OUTCOME_UNKNOWN, Timeline.SHOP, "lost");
    timeline.inTransaction(payment, TimelineEntry.Kind.CAPTURED, Timeline.SHOP, "ch_1");
  }

  @Test
  void anEntry_isOfThePaymentsKey_atMilliseconds_andItsDetailFitsTheColumn() {
    Timeline timeline = InMemoryTimeline.timeline(store);
    Instant at = Instant.parse("2026-12-06T03:00:00.123456789Z");

    timeline.alone(
        payment, TimelineEntry.Kind.GATEWAY_TRY_FAILED, Timeline.SHOP, "x".repeat(5000), at);

    PaymentTimeline.Entry entry = store.entries.get(0);
    assertThat(entry.at()).isEqualTo(Instant.parse("2026-12-06T03:00:00.123Z"));
    assertThat(entry.detail()).hasSize(Timeline.DETAIL_LENGTH);
    assertThat(entry.tenantId()).isEqualTo(Fixtures.TENANT);
    assertThat(entry.idempotencyKey()).isEqualTo(Fixtures.KEY);
    assertThat(entry.paymentId()).isEqualTo(payment.id());
  }
}
