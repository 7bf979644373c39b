package com.banhang.shop.payments.application;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.lenient;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import com.banhang.events.RecordingOutbox;
import com.banhang.shop.orders.api.PayableOrder;
import com.banhang.shop.orders.api.PayableOrders;
import com.banhang.shop.payments.api.LateChargeChecked;
import com.banhang.shop.payments.api.LateChargeReport;
import com.banhang.shop.payments.api.LateChargeReport.Finding;
import com.banhang.shop.payments.api.TimelineEntry;
import com.banhang.shop.payments.domain.model.LateCharge;
import com.banhang.shop.payments.domain.model.Payment;
import com.banhang.shop.payments.domain.model.PaymentInProgressException;
import com.banhang.shop.payments.domain.model.PaymentRepository;
import jakarta.enterprise.event.Event;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

/**
 * What the late-charge sweep does with a charge found under an abandoned attempt's key, and where
 * its transactions are: none while it asks the gateway, one per decision.
 */
@ExtendWith(MockitoExtension.class)
class LateChargeRecordingTest {

  private static final String GATEWAY_KEY = "banhang_late";

  @Mock PaymentRepository repository;
  @Mock PayableOrders orders;

  @Mock PaymentGateway gateway;
  @Mock Event<LateChargeChecked> checks;

  /** Whether the sweep's transaction is open now. */
  private boolean inTransaction;

  private final DefaultLateChargeSweep service = new DefaultLateChargeSweep();
  private final InMemoryTimeline timeline = new InMemoryTimeline();
  private final RecordingOutbox outbox = new RecordingOutbox();
  private Payment abandoned;

  @BeforeEach
  void wire() {
    service.payments = repository;
    service.orders = orders;
    service.gateway = gateway;
    service.checks = checks;
    service.timeline = InMemoryTimeline.timeline(timeline);
    service.events = new PaymentEvents();
    service.events.outbox = outbox;
    service.gatewayKeyRetention = Duration.ofHours(24);
    service.recheck = Duration.ofMinutes(10);
    service.batchSize = 100;
    service.transaction =
        new OneTransaction() {
          @Override
          public <T> T run(Supplier<T> work) {
            inTransaction = true;
            try {
              return work.get();
            } finally {
              inTransaction = false;
            }
          }
        };
    abandoned = new Payment("alice", "order-1", 1000, "VND", "pm_card_ok", GATEWAY_KEY, "k-1", 1);
    abandoned.abandon();
    lenient().when(repository.lock(abandoned.id())).thenReturn(Optional.of(abandoned));
  }

  /** The run's candidates: only {@link #abandoned}. */
  private void candidates() {
    when(repository.lateChargeCandidates(any(), any(), eq(100))).thenReturn(List.of(abandoned));
  }

  private static PaymentGateway.ChargeDetails charge(boolean succeeded, long amount, String order) {
    return new PaymentGateway.ChargeDetails(
        "ch_late", succeeded, amount, "VND", order, GATEWAY_KEY);
  }

  private void orderPaid(boolean paid) {
    when(orders.find("alice", "order-1"))
        .thenReturn(new PayableOrder("order-1", "alice", "VND", 1000, paid));
  }

  @Test
  void everyFinding_isOnTheTimeline_aRecordedChargeInTheTransactionThatRecordsIt() {
    orderPaid(false);

    service.recordLateCharge(abandoned.id(), charge(true, 1000, "order-1"));

    assertThat(timeline.kinds())
        .containsExactly(TimelineEntry.Kind.LATE_CHARGE_CHECK, TimelineEntry.Kind.CAPTURED);
    assertThat(timeline.entries.get(0).detail())
        .startsWith("RECORDED")
        .contains("succeeded charge ch_late of 1000 VND for order order-1");
    assertThat(timeline.entries)
        .allSatisfy(
            e -> {
              assertThat(e.actor()).isEqualTo(Timeline.LATE_CHARGE_SWEEP);
              assertThat(e.paymentId()).isEqualTo(abandoned.id());
              assertThat(e.idempotencyKey()).isEqualTo("k-1");
            });
  }

  @Test
  void aSweepThatFindsNothing_orCannotAsk_isOnTheTimelineToo() {
    candidates();
    when(gateway.findByKey(GATEWAY_KEY))
        .thenReturn(Optional.empty())
        .thenThrow(new GatewayUnavailableException("down", null));

    service.sweep();
    service.sweep();

    assertThat(timeline.entries)
        .extracting(PaymentTimeline.Entry::detail)
        .satisfiesExactly(
            d -> assertThat(d).startsWith("NOT_FOUND"),
            d -> assertThat(d).startsWith("GATEWAY_UNREACHABLE").contains("down"));
  }

  @Test
  void aMatchingChargeOnAnUnpaidOrderIsRecorded() {
    orderPaid(false);

    assertThat(service.recordLateCharge(abandoned.id(), charge(true, 1000, "order-1")))
        .contains(LateCharge.RECORDED);

    assertThat(abandoned.status()).isEqualTo(Payment.Status.CAPTURED);
    assertThat(abandoned.gatewayChargeId()).isEqualTo("ch_late");
    verify(orders).markPaid("alice", "order-1");
    verify(repository).flush();
    assertThat(outbox.types()).containsExactly(PaymentEvents.CAPTURED);
    assertThat(outbox.recorded.get(0).payload()).contains("\"settledBy\":\"late-charge-sweep\"");
  }

  @Test
  void aMatchingChargeOnAnOrderPaidByAnotherAttemptIsADoubleChargeForAnOperator() {
    orderPaid(true);

    assertThat(service.recordLateCharge(abandoned.id(), charge(true, 1000, "order-1")))
        .contains(LateCharge.DOUBLE_CHARGE);

    assertThat(abandoned.status()).isEqualTo(Payment.Status.ABANDONED);
    assertThat(abandoned.lateChargeId()).isEqualTo("ch_late");
    assertThat(abandoned.lateChargeDetail()).contains("charged twice");
    verify(orders, never()).markPaid("alice", "order-1");
    assertThat(outbox.recorded).isEmpty();
  }

  @Test
  void aChargeOfAnotherAmountIsAMismatchForAnOperator() {
    assertThat(service.recordLateCharge(abandoned.id(), charge(true, 999, "order-1")))
        .contains(LateCharge.MISMATCH);

    assertThat(abandoned.status()).isEqualTo(Payment.Status.ABANDONED);
    verify(orders, never()).markPaid("alice", "order-1");
  }

  @Test
  void aLateDeclineChangesNothingButIsNotAskedAgain() {
    assertThat(service.recordLateCharge(abandoned.id(), charge(false, 1000, "order-1")))
        .contains(LateCharge.DECLINED);

    assertThat(abandoned.status()).isEqualTo(Payment.Status.ABANDONED);
    assertThat(abandoned.lateCharge()).isEqualTo(LateCharge.DECLINED);
  }

  @Test
  void aGatewayKeyAnotherAttemptCapturedIsAlreadyRecorded() {
    Payment retry =
        new Payment("alice", "order-1", 1000, "VND", "pm_card_ok", GATEWAY_KEY, "k-1", 2);
    retry.capture("ch_late");
    when(repository.findCapturedByGatewayKey(GATEWAY_KEY)).thenReturn(Optional.of(retry));

    assertThat(service.recordLateCharge(abandoned.id(), charge(true, 1000, "order-1"))).isEmpty();

    assertThat(abandoned.status()).isEqualTo(Payment.Status.ABANDONED);
    verify(orders, never()).markPaid("alice", "order-1");
  }

  @Test
  void anAttemptDecidedByAnotherNodeIsLeftAlone() {
    orderPaid(false);
    service.recordLateCharge(abandoned.id(), charge(true, 1000, "order-1"));

    assertThat(service.recordLateCharge(abandoned.id(), charge(true, 1000, "order-1"))).isEmpty();

    verify(orders).markPaid("alice", "order-1");
  }

  @Test
  void aRunAsksTheGatewayOutsideAnyTransactionAndDecidesInsideOne() {
    candidates();
    orderPaid(false);
    when(gateway.findByKey(GATEWAY_KEY))
        .thenAnswer(
            call -> {
              assertThat(inTransaction).isFalse();
              return Optional.of(charge(true, 1000, "order-1"));
            });
    when(orders.find("alice", "order-1"))
        .thenAnswer(
            call -> {
              assertThat(inTransaction).isTrue();
              return new PayableOrder("order-1", "alice", "VND", 1000, false);
            });

    LateChargeReport report = service.sweep();

    assertThat(report.findings()).containsEntry(Finding.RECORDED, 1);
    verify(checks).fire(new LateChargeChecked(Finding.RECORDED));
  }

  @Test
  void nothingFound_notesTheCheckOnTheAttempt_inATransaction() {
    candidates();
    when(gateway.findByKey(GATEWAY_KEY)).thenReturn(Optional.empty());
    when(repository.lock(abandoned.id()))
        .thenAnswer(
            call -> {
              assertThat(inTransaction).isTrue();
              return Optional.of(abandoned);
            });

    assertThat(service.sweep(Duration.ZERO).findings()).containsEntry(Finding.NOT_FOUND, 1);

    assertThat(abandoned.lateCheckedAt()).isNotNull();
    assertThat(abandoned.lateCharge()).isNull();
  }

  @Test
  void anOrderAnotherAttemptHolds_isLeftForTheNextRun() {
    candidates();
    orderPaid(false);
    when(gateway.findByKey(GATEWAY_KEY)).thenReturn(Optional.of(charge(true, 1000, "order-1")));
    doThrow(new PaymentInProgressException("order-1")).when(repository).flush();

    assertThat(service.sweep().findings()).containsEntry(Finding.ORDER_HELD, 1);
  }

  @Test
  void anUnreachableGateway_changesNothing() {
    candidates();
    when(gateway.findByKey(GATEWAY_KEY)).thenThrow(new GatewayUnavailableException("down", null));

    assertThat(service.sweep().findings()).containsEntry(Finding.GATEWAY_UNREACHABLE, 1);

    verify(repository, never()).lock(anyString());
    assertThat(abandoned.lateCheckedAt()).isNull();
  }
}
