package com.banhang.shop.payments.application;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import com.banhang.events.NewEvent;
import com.banhang.events.RecordingOutbox;
import com.banhang.idempotency.ClaimedKey;
import com.banhang.shop.orders.api.PayableOrder;
import com.banhang.shop.orders.api.PayableOrders;
import com.banhang.shop.payments.api.TimelineEntry;
import com.banhang.shop.payments.domain.model.Payment;
import com.banhang.shop.payments.domain.model.PaymentRepository;
import java.util.Base64;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.ArgumentCaptor;
import org.mockito.InOrder;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

/** Which gateway key a new attempt gets, and how a gateway answer is recorded. */
@ExtendWith(MockitoExtension.class)
class PaymentServiceTest {

  private static final ClaimedKey CLAIM = new ClaimedKey("alice", "payments.charge", "k-1", 2);
  private static final String OLD_KEY = "banhang_000000000000000000000000000000000000000000000000";

  @Mock PaymentRepository repository;
  @Mock PayableOrders orders;

  private final PaymentService service = new PaymentService();
  private final InMemoryTimeline timeline = new InMemoryTimeline();
  private final RecordingOutbox outbox = new RecordingOutbox();
  private final GatewayKeys keys =
      GatewayKeys.withSecret(Base64.getEncoder().encodeToString(new byte[32]));

  @BeforeEach
  void wire() {
    service.payments = repository;
    service.orders = orders;
    service.gatewayKeys = keys;
    service.timeline = InMemoryTimeline.timeline(timeline);
    service.events = new PaymentEvents();
    service.events.outbox = outbox;
  }

  private Payment start(String paymentMethod) {
    when(orders.findUnpaid("alice", "order-1"))
        .thenReturn(new PayableOrder("order-1", "alice", "VND", 1000, false));
    return service.startPayment(
        new PayOrder.Command("alice", "order-1", 1000, "VND", paymentMethod), CLAIM);
  }

  private static Payment earlier(String paymentMethod) {
    return new Payment("alice", "order-1", 1000, "VND", paymentMethod, OLD_KEY, "k-1", 1);
  }

  @Test
  void aFirstAttemptGetsTheDerivedKey() {
    when(repository.findLatestByKey("alice", "k-1")).thenReturn(Optional.empty());

    Payment payment = start("pm_card_ok");

    assertThat(payment.gatewayKey())
        .isEqualTo(keys.derive(CLAIM, "order-1", 1000, "VND", "pm_card_ok"));
    ArgumentCaptor<Payment> added = ArgumentCaptor.forClass(Payment.class);
    verify(repository).add(added.capture());
    assertThat(added.getValue().gatewayKey()).isEqualTo(payment.gatewayKey());
  }

  @Test
  void aRetryOfTheSameRequestKeepsTheStoredKeyOfItsEarlierAttempt() {
    when(repository.findLatestByKey("alice", "k-1")).thenReturn(Optional.of(earlier("pm_card_ok")));

    assertThat(start("pm_card_ok").gatewayKey()).isEqualTo(OLD_KEY);
  }

  @Test
  void aReleasedKeyReusedWithAnotherBodyGetsAnotherKey() {
    when(repository.findLatestByKey("alice", "k-1"))
        .thenReturn(Optional.of(earlier("pm_card_other")));

    String key = start("pm_card_ok").gatewayKey();

    assertThat(key).isNotEqualTo(OLD_KEY);
    assertThat(key).isEqualTo(keys.derive(CLAIM, "order-1", 1000, "VND", "pm_card_ok"));
    verify(repository).add(any());
  }

  @Test
  void aChargeCapturesThePaymentPaysTheOrderAndWritesBothBeforeTheCallersKey() {
    Payment payment = earlier("pm_card_ok");
    when(repository.lock(payment.id())).thenReturn(Optional.of(payment));

    Payment recorded =
        service.recordCharge(payment.id(), new PaymentGateway.Charge("ch_1", true), Timeline.SHOP);

    assertThat(recorded.status()).isEqualTo(Payment.Status.CAPTURED);
    assertThat(recorded.gatewayChargeId()).isEqualTo("ch_1");
    // Flushed last, so that the completion of the key after it is the transaction's last write.
    InOrder order = inOrder(orders, repository);
    order.verify(orders).markPaid("alice", "order-1");
    order.verify(repository).flush();
  }

  @Test
  void aDeclineFreesTheOrder_andAnAttemptSettledElsewhereIsLeftAsItIs() {
    Payment payment = earlier("pm_card_ok");
    when(repository.lock(payment.id())).thenReturn(Optional.of(payment));

    service.recordCharge(payment.id(), new PaymentGateway.Charge("ch_d", false), Timeline.SHOP);
    Payment again =
        service.recordCharge(payment.id(), new PaymentGateway.Charge("ch_2", true), Timeline.SHOP);

    assertThat(again.status()).isEqualTo(Payment.Status.DECLINED);
    assertThat(again.gatewayChargeId()).isEqualTo("ch_d");
    verify(orders, never()).markPaid(anyString(), anyString());
    verify(repository, times(1)).flush();
    // Only the settlement that happened is on the timeline, once, and so is its event.
    assertThat(timeline.kinds()).containsExactly(TimelineEntry.Kind.DECLINED);
    assertThat(outbox.types()).containsExactly(PaymentEvents.DECLINED);
  }

  @Test
  void eachSettlementWritesItsEventToTheOrdersStream_sayingWhoSettledIt() {
    when(repository.findLatestByKey("alice", "k-1")).thenReturn(Optional.empty());
    Payment started = start("pm_card_ok");
    when(repository.lock(started.id())).thenReturn(Optional.of(started));
    Payment other = new Payment("alice", "order-2", 1000, "VND", "pm_card_ok", OLD_KEY, "k-2", 1);
    when(repository.lock(other.id())).thenReturn(Optional.of(other));

    assertThat(outbox.recorded).isEmpty();
    service.recordCharge(
        started.id(), new PaymentGateway.Charge("ch_1", true), Timeline.RECONCILIATION);
    service.abandon(other.id(), Timeline.OPERATOR, "resolved as not charged");

    assertThat(outbox.recorded)
        .extracting(NewEvent::type, NewEvent::aggregateType, NewEvent::aggregateId)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(PaymentEvents.CAPTURED, "order", "order-1"),
            org.assertj.core.groups.Tuple.tuple(PaymentEvents.ABANDONED, "order", "order-2"));
    assertThat(outbox.recorded.get(0).tenantId()).isEqualTo("alice");
    assertThat(outbox.recorded.get(0).payload())
        .contains("\"paymentId\":\"" + started.id() + "\"")
        .contains("\"amount\":1000")
        .contains("\"chargeId\":\"ch_1\"")
        .contains("\"settledBy\":\"reconciliation\"");
    assertThat(outbox.recorded.get(1).payload()).contains("\"settledBy\":\"operator\"");
  }

  @Test
  void theAttemptsStart_itsSettlement_andItsAbandon_areOnItsTimeline_byWhoDidThem() {
    when(repository.findLatestByKey("alice", "k-1")).thenReturn(Optional.empty());
    Payment started = start("pm_card_ok");
    when(repository.lock(started.id())).thenReturn(Optional.of(started));

    service.recordCharge(
        started.id(), new PaymentGateway.Charge("ch_1", true), Timeline.RECONCILIATION);
    service.abandon(started.id(), Timeline.SHOP, "too late");

    assertThat(timeline.entries)
        .extracting(PaymentTimeline.Entry::kind, PaymentTimeline.Entry::actor)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                TimelineEntry.Kind.ATTEMPT_STARTED, Timeline.CUSTOMER),
            org.assertj.core.groups.Tuple.tuple(
                TimelineEntry.Kind.CAPTURED, Timeline.RECONCILIATION));
    PaymentTimeline.Entry first = timeline.entries.get(0);
    assertThat(first.tenantId()).isEqualTo("alice");
    assertThat(first.idempotencyKey()).isEqualTo("k-1");
    assertThat(first.paymentId()).isEqualTo(started.id());
    assertThat(first.detail()).contains("attempt 2").contains(started.gatewayKey());
    assertThat(timeline.entries.get(1).detail()).contains("ch_1");
  }

  @Test
  void anAbandonIsOnTheTimeline_andAFailingTimelineNeverFailsTheBusinessChange() {
    Payment payment = earlier("pm_card_ok");
    when(repository.lock(payment.id())).thenReturn(Optional.of(payment));
    timeline.failure = new IllegalStateException("timeline down");

    assertThat(service.abandon(payment.id(), Timeline.SHOP, "certainly not charged").status())
        .isEqualTo(Payment.Status.ABANDONED);

    timeline.failure = null;
    Payment other = new Payment("alice", "order-2", 1000, "VND", "pm_card_ok", OLD_KEY, "k-2", 1);
    when(repository.lock(other.id())).thenReturn(Optional.of(other));
    service.abandon(other.id(), Timeline.RECONCILIATION, "no charge under the key");
    assertThat(timeline.entries).hasSize(1);
    assertThat(timeline.entries.get(0).kind()).isEqualTo(TimelineEntry.Kind.ABANDONED);
    assertThat(timeline.entries.get(0).actor()).isEqualTo(Timeline.RECONCILIATION);
    assertThat(timeline.entries.get(0).detail())
        .contains("no charge under the key")
        .contains("order-2");
  }
}
