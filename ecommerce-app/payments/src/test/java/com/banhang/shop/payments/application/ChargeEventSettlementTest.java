package com.banhang.shop.payments.application;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import com.banhang.idempotency.IdempotencyKeys;
import com.banhang.idempotency.IdempotencyRecord;
import com.banhang.shop.payments.api.GatewayEventView.Status;
import com.banhang.shop.payments.api.TimelineEntry.Kind;
import com.banhang.shop.payments.domain.model.LateCharge;
import com.banhang.shop.payments.domain.model.Payment;
import com.banhang.shop.payments.domain.model.PaymentRepository;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

/**
 * What a charge event from the processor does to the payment made under its gateway key: settles an
 * unknown outcome through the fenced path, waits for a running request, confirms a matching record,
 * flags every contradiction without applying it, and hands an abandoned attempt's charge to the
 * late-charge decision.
 */
@ExtendWith(MockitoExtension.class)
class ChargeEventSettlementTest {

  @Mock PaymentRepository repository;
  @Mock PaymentService payments;
  @Mock IdempotencyKeys keys;
  @Mock PayOrder payOrder;
  @Mock DefaultLateChargeSweep lateCharges;

  private final ChargeEventSettlement settlement = new ChargeEventSettlement();
  private final InMemoryTimeline timeline = new InMemoryTimeline();
  private Payment payment;

  @BeforeEach
  void wire() {
    settlement.payments = repository;
    settlement.paymentService = payments;
    settlement.keys = keys;
    settlement.payOrder = payOrder;
    settlement.lateCharges = lateCharges;
    settlement.timeline = InMemoryTimeline.timeline(timeline);
    payment = Fixtures.pendingPayment();
  }

  private static ChargeEvent event(boolean succeeded, String chargeId, long amount) {
    return new ChargeEvent(
        "evt_1",
        succeeded ? "charge.succeeded" : "charge.failed",
        new PaymentGateway.ChargeDetails(
            chargeId, succeeded, amount, "VND", Fixtures.ORDER, Fixtures.GATEWAY_KEY));
  }

  private static ChargeEvent succeeded() {
    return event(true, "ch_1", Fixtures.AMOUNT);
  }

  private void found(Payment... attempts) {
    when(repository.findByGatewayKey(Fixtures.GATEWAY_KEY)).thenReturn(List.of(attempts));
    for (Payment attempt : attempts) {
      org.mockito.Mockito.lenient()
          .when(repository.lock(attempt.id()))
          .thenReturn(Optional.of(attempt));
    }
  }

  private void keyIs(IdempotencyRecord record) {
    when(keys.find(Fixtures.TENANT, PayOrder.OPERATION, Fixtures.KEY))
        .thenReturn(Optional.of(record));
    org.mockito.Mockito.lenient()
        .when(payments.paymentOf(record.claimedKey()))
        .thenReturn(Optional.of(payment));
  }

  private List<String> eventEntries() {
    return timeline.entries.stream()
        .filter(e -> e.kind() == Kind.GATEWAY_EVENT)
        .map(e -> e.actor() + " " + e.detail())
        .toList();
  }

  @Test
  void anUnknownOutcome_isSettledThroughTheFencedPath() {
    found(payment);
    keyIs(Fixtures.processing(Duration.ofSeconds(5)));
    when(payOrder.completeClaim(any(), eq(payment.id()), any(), eq(Timeline.GATEWAY_WEBHOOK)))
        .thenAnswer(
            call -> {
              payment.capture("ch_1");
              return payment;
            });

    ChargeEventSettlement.Decision decision = settlement.decide(succeeded());

    assertThat(decision.status()).isEqualTo(Status.SETTLED);
    assertThat(decision.waits()).isFalse();
    assertThat(decision.paymentId()).isEqualTo(payment.id());
    verify(payOrder)
        .completeClaim(
            any(),
            eq(payment.id()),
            eq(new PaymentGateway.Charge("ch_1", true)),
            eq(Timeline.GATEWAY_WEBHOOK));
    assertThat(eventEntries()).singleElement().asString().startsWith("gateway-webhook SETTLED");
  }

  @Test
  void aRequestStillHoldingItsLease_isWaitedFor_nothingRecorded() {
    found(payment);
    keyIs(Fixtures.processing(Fixtures.KEY, false, Instant.now().plusSeconds(20)));

    ChargeEventSettlement.Decision decision = settlement.decide(succeeded());

    assertThat(decision.waits()).isTrue();
    assertThat(decision.status()).isEqualTo(Status.PENDING);
    verify(payOrder, never()).completeClaim(any(), anyString(), any(), anyString());
    assertThat(eventEntries()).isEmpty();
  }

  @Test
  void anotherAmount_isFlagged_notApplied() {
    found(payment);

    ChargeEventSettlement.Decision decision =
        settlement.decide(event(true, "ch_1", Fixtures.AMOUNT + 1));

    assertThat(decision.status()).isEqualTo(Status.FLAGGED);
    assertThat(decision.detail()).contains("amount");
    verify(payOrder, never()).completeClaim(any(), anyString(), any(), anyString());
    assertThat(payment.status()).isEqualTo(Payment.Status.PENDING);
  }

  @Test
  void aChargeOfNoKnownPayment_isFlagged() {
    when(repository.findByGatewayKey(Fixtures.GATEWAY_KEY)).thenReturn(List.of());

    ChargeEventSettlement.Decision decision = settlement.decide(succeeded());

    assertThat(decision.status()).isEqualTo(Status.FLAGGED);
    assertThat(decision.paymentId()).isNull();
    assertThat(decision.detail()).contains("no payment");
  }

  @Test
  void theSameOutcomeAlreadyRecorded_isConfirmed_andNoted() {
    payment.capture("ch_1");
    found(payment);

    ChargeEventSettlement.Decision decision = settlement.decide(succeeded());

    assertThat(decision.status()).isEqualTo(Status.CONFIRMED);
    assertThat(eventEntries()).singleElement().asString().contains("CONFIRMED");
    verify(payOrder, never()).completeClaim(any(), anyString(), any(), anyString());
  }

  @Test
  void aSuccessForADeclinedPayment_isFlagged() {
    payment.decline("ch_1");
    found(payment);

    ChargeEventSettlement.Decision decision = settlement.decide(succeeded());

    assertThat(decision.status()).isEqualTo(Status.FLAGGED);
    assertThat(payment.status()).isEqualTo(Payment.Status.DECLINED);
  }

  @Test
  void aFailureForACapturedPayment_orAnotherCharge_isFlagged() {
    payment.capture("ch_1");
    found(payment);

    assertThat(settlement.decide(event(false, "ch_1", Fixtures.AMOUNT)).status())
        .isEqualTo(Status.FLAGGED);
    assertThat(settlement.decide(event(true, "ch_other", Fixtures.AMOUNT)).status())
        .isEqualTo(Status.FLAGGED);
    assertThat(payment.status()).isEqualTo(Payment.Status.CAPTURED);
  }

  @Test
  void anAbandonedAttempt_isDecidedAsALateCharge() {
    payment.abandon();
    found(payment);
    when(lateCharges.decide(eq(payment.id()), any(), eq(Timeline.GATEWAY_WEBHOOK)))
        .thenReturn(Optional.of(LateCharge.RECORDED), Optional.of(LateCharge.DOUBLE_CHARGE))
        .thenReturn(Optional.empty());

    assertThat(settlement.decide(succeeded()).status()).isEqualTo(Status.SETTLED);
    assertThat(settlement.decide(succeeded()).status()).isEqualTo(Status.FLAGGED);
    assertThat(settlement.decide(succeeded()).status()).isEqualTo(Status.CONFIRMED);
  }

  @Test
  void theAttemptInFlight_isChosenOverAnAbandonedOneOfTheSameGatewayKey() {
    Payment abandoned = Fixtures.pendingPayment();
    abandoned.abandon();
    found(abandoned, payment);
    keyIs(Fixtures.processing(Duration.ofSeconds(5)));
    when(payOrder.completeClaim(any(), eq(payment.id()), any(), anyString())).thenReturn(payment);

    assertThat(settlement.decide(succeeded()).paymentId()).isEqualTo(payment.id());
    verify(lateCharges, never()).decide(anyString(), any(), anyString());
  }
}
