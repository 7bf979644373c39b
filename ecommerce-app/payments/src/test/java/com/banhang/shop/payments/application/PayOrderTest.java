package com.banhang.shop.payments.application;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import com.banhang.idempotency.ClaimLostException;
import com.banhang.idempotency.ClaimedKey;
import com.banhang.idempotency.IdempotencyKeys;
import com.banhang.idempotency.IdempotentRequest;
import com.banhang.idempotency.OutcomeUnknownException;
import com.banhang.shop.payments.api.TimelineEntry;
import com.banhang.shop.payments.domain.model.Payment;
import jakarta.persistence.PersistenceException;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.ArgumentCaptor;
import org.mockito.InOrder;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

/**
 * payments.charge's three steps and what each failure leaves behind, against mocked collaborators;
 * a transaction is a flag set while {@link OneTransaction#run} runs its work.
 */
@ExtendWith(MockitoExtension.class)
class PayOrderTest {

  private static final ClaimedKey CLAIM =
      new ClaimedKey(Fixtures.TENANT, PayOrder.OPERATION, Fixtures.KEY, 2);
  private static final PayOrder.Command COMMAND =
      new PayOrder.Command(Fixtures.TENANT, Fixtures.ORDER, Fixtures.AMOUNT, "VND", "pm_card_ok");
  private static final PaymentGateway.Charge CHARGED = new PaymentGateway.Charge("ch_1", true);

  @Mock PaymentService payments;
  @Mock PaymentGateway gateway;
  @Mock IdempotentRequest currentRequest;
  @Mock IdempotencyKeys keys;

  /** Whether a transaction of {@link OneTransaction} is open now. */
  private boolean inTransaction;

  private final PayOrder payOrder = new PayOrder();
  private final InMemoryTimeline timeline = new InMemoryTimeline();
  private Payment payment;

  @BeforeEach
  void wire() {
    payOrder.payments = payments;
    payOrder.gateway = gateway;
    payOrder.currentRequest = currentRequest;
    payOrder.keys = keys;
    payOrder.timeline = InMemoryTimeline.timeline(timeline);
    payOrder.transaction =
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
    payment = Fixtures.pendingPayment();
  }

  /** A claimed request whose attempt starts and whose gateway call answers with {@code charge}. */
  private void claimedAndStarted() {
    when(currentRequest.claim()).thenReturn(Optional.of(CLAIM));
    when(payments.capturedEarlier(COMMAND, CLAIM)).thenReturn(Optional.empty());
    when(payments.startPayment(COMMAND, CLAIM)).thenReturn(payment);
  }

  private void gatewayAnswers(PaymentGateway.Charge charge) {
    when(gateway.charge(eq(PaymentGateway.ChargeRequest.of(payment)), any()))
        .thenAnswer(
            call -> {
              assertThat(inTransaction).as("a transaction open across the gateway call").isFalse();
              return charge;
            });
  }

  @Test
  void aChargeIsRecordedAndTheKeyCompletedInOneTransaction_neverOneOpenAtTheGateway() {
    claimedAndStarted();
    gatewayAnswers(CHARGED);
    when(payments.recordCharge(payment.id(), CHARGED, Timeline.SHOP))
        .thenAnswer(
            call -> {
              assertThat(inTransaction).isTrue();
              payment.capture("ch_1");
              return payment;
            });
    Response stored = Response.ok().build();
    ArgumentCaptor<Response> answer = ArgumentCaptor.forClass(Response.class);
    when(currentRequest.complete(answer.capture()))
        .thenAnswer(
            call -> {
              assertThat(inTransaction).as("the key completed with the payment").isTrue();
              return stored;
            });

    assertThat(payOrder.pay(COMMAND)).isSameAs(stored);

    InOrder order = inOrder(payments, gateway, currentRequest);
    order.verify(payments).startPayment(COMMAND, CLAIM);
    order.verify(gateway).charge(eq(PaymentGateway.ChargeRequest.of(payment)), any());
    order.verify(payments).recordCharge(payment.id(), CHARGED, Timeline.SHOP);
    order.verify(currentRequest).complete(any());
    assertThat(answer.getValue().getStatus()).isEqualTo(201);
    assertThat(answer.getValue().getEntity()).isEqualTo(PaymentView.of(payment));
  }

  @Test
  void theGatewayIsAskedUnderTheAttemptsGatewayKeyForItsRequest() {
    claimedAndStarted();
    gatewayAnswers(CHARGED);
    when(payments.recordCharge(payment.id(), CHARGED, Timeline.SHOP)).thenReturn(payment);
    when(currentRequest.complete(any())).thenReturn(Response.ok().build());
    payment.capture("ch_1");

    payOrder.pay(COMMAND);

    verify(gateway)
        .charge(
            eq(
                new PaymentGateway.ChargeRequest(
                    Fixtures.GATEWAY_KEY, Fixtures.AMOUNT, "VND", Fixtures.ORDER, "pm_card_ok")),
            any());
  }

  @Test
  void aKeyWhoseChargeTheSweepRecordedLate_isAnsweredWithItWithoutTheGateway() {
    payment.abandon();
    payment.captureLate("ch_late");
    when(currentRequest.claim()).thenReturn(Optional.of(CLAIM));
    when(payments.capturedEarlier(COMMAND, CLAIM)).thenReturn(Optional.of(payment));
    Response stored = Response.ok().build();
    ArgumentCaptor<Response> answer = ArgumentCaptor.forClass(Response.class);
    when(currentRequest.complete(answer.capture()))
        .thenAnswer(
            call -> {
              assertThat(inTransaction).isTrue();
              return stored;
            });

    assertThat(payOrder.pay(COMMAND)).isSameAs(stored);

    assertThat(answer.getValue().getStatus()).isEqualTo(201);
    verify(payments, never()).startPayment(any(), any());
    verifyNoInteractions(gateway);
  }

  @Test
  void
      theFailedTries_goToTheTimelineWithTheirOwnTimes_afterTheCall_beforeTheAnswerInTheCompletion() {
    claimedAndStarted();
    Instant firstTry = Instant.parse("2026-12-06T03:00:00.120Z");
    when(gateway.charge(eq(PaymentGateway.ChargeRequest.of(payment)), any()))
        .thenAnswer(
            call -> {
              java.util.function.Consumer<PaymentGateway.FailedTry> tries = call.getArgument(1);
              tries.accept(new PaymentGateway.FailedTry(firstTry, "timeout: read timed out"));
              return CHARGED;
            });
    when(payments.recordCharge(payment.id(), CHARGED, Timeline.SHOP))
        .thenAnswer(
            call -> {
              // The gateway's answer is written in the completion's transaction, before it.
              assertThat(timeline.kinds())
                  .containsExactly(
                      TimelineEntry.Kind.GATEWAY_TRY_FAILED, TimelineEntry.Kind.GATEWAY_ANSWERED);
              payment.capture("ch_1");
              return payment;
            });
    when(currentRequest.complete(any())).thenReturn(Response.ok().build());

    payOrder.pay(COMMAND);

    PaymentTimeline.Entry tryFailed = timeline.of(TimelineEntry.Kind.GATEWAY_TRY_FAILED).get(0);
    assertThat(tryFailed.at()).isEqualTo(firstTry);
    assertThat(tryFailed.detail()).contains("timeout");
    assertThat(tryFailed.actor()).isEqualTo(Timeline.SHOP);
    assertThat(tryFailed.paymentId()).isEqualTo(payment.id());
    assertThat(timeline.of(TimelineEntry.Kind.GATEWAY_ANSWERED).get(0).detail()).contains("ch_1");
  }

  @Test
  void anUnknownOutcome_isOnTheTimeline_andAFailingTimelineChangesNoAnswer() {
    claimedAndStarted();
    when(gateway.charge(any(), any())).thenThrow(new GatewayOutcomeUnknownException("lost", null));

    assertThatThrownBy(() -> payOrder.pay(COMMAND)).isInstanceOf(OutcomeUnknownException.class);
    assertThat(timeline.kinds()).containsExactly(TimelineEntry.Kind.OUTCOME_UNKNOWN);
    assertThat(timeline.entries.get(0).detail()).contains(payment.id()).contains("reconcil");

    timeline.failure = new IllegalStateException("timeline table gone");
    assertThatThrownBy(() -> payOrder.pay(COMMAND)).isInstanceOf(OutcomeUnknownException.class);
  }

  @Test
  void aFailingTimeline_neverTurnsACaptureIntoAnError() {
    claimedAndStarted();
    gatewayAnswers(CHARGED);
    timeline.failure = new IllegalStateException("timeline table gone");
    when(payments.recordCharge(payment.id(), CHARGED, Timeline.SHOP))
        .thenAnswer(
            call -> {
              payment.capture("ch_1");
              return payment;
            });
    Response stored = Response.ok().build();
    when(currentRequest.complete(any())).thenReturn(stored);

    assertThat(payOrder.pay(COMMAND)).isSameAs(stored);
  }

  @Test
  void certainlyNotCharged_abandonsTheAttempt_andTheFailureReachesTheLibrary() {
    claimedAndStarted();
    GatewayUnavailableException unavailable = new GatewayUnavailableException("503", null);
    when(gateway.charge(any(), any())).thenThrow(unavailable);

    assertThatThrownBy(() -> payOrder.pay(COMMAND)).isSameAs(unavailable);

    verify(payments).abandon(eq(payment.id()), eq(Timeline.SHOP), anyString());
    verify(currentRequest, never()).complete(any());
  }

  @Test
  void aRefusal_abandonsTheAttempt_andTheRefusalReachesTheLibrary() {
    claimedAndStarted();
    GatewayRefusedException refused = new GatewayRefusedException("422");
    when(gateway.charge(any(), any())).thenThrow(refused);

    assertThatThrownBy(() -> payOrder.pay(COMMAND)).isSameAs(refused);

    verify(payments).abandon(eq(payment.id()), eq(Timeline.SHOP), anyString());
  }

  @Test
  void anAbandonThatCannotBeWritten_isAnUnknownOutcome() {
    claimedAndStarted();
    when(gateway.charge(any(), any())).thenThrow(new GatewayUnavailableException("503", null));
    doThrow(new PersistenceException("down"))
        .when(payments)
        .abandon(eq(payment.id()), anyString(), anyString());

    assertThatThrownBy(() -> payOrder.pay(COMMAND))
        .isInstanceOfSatisfying(
            OutcomeUnknownException.class,
            e -> assertThat(e.problemType()).isEqualTo(PayOrder.OUTCOME_UNKNOWN));
  }

  @Test
  void anUnconfirmedCharge_leavesTheAttemptPending_asAnUnknownOutcome() {
    claimedAndStarted();
    when(gateway.charge(any(), any())).thenThrow(new GatewayOutcomeUnknownException("lost", null));

    assertThatThrownBy(() -> payOrder.pay(COMMAND))
        .isInstanceOfSatisfying(
            OutcomeUnknownException.class,
            e -> {
              assertThat(e.problemType()).isEqualTo("payment-outcome-unknown");
              assertThat(e.getMessage()).contains(payment.id());
            });

    verify(payments, never()).abandon(anyString(), anyString(), anyString());
    verify(payments, never()).recordCharge(anyString(), any(), anyString());
  }

  @Test
  void anAnswerThatCannotBeRecorded_isAnUnknownOutcome_neverARelease() {
    claimedAndStarted();
    gatewayAnswers(CHARGED);
    when(payments.recordCharge(payment.id(), CHARGED, Timeline.SHOP))
        .thenThrow(new PersistenceException("connection lost"));

    assertThatThrownBy(() -> payOrder.pay(COMMAND)).isInstanceOf(OutcomeUnknownException.class);

    verify(payments, never()).abandon(anyString(), anyString(), anyString());
  }

  @Test
  void aKeySettledMeanwhileByReconciliation_isAClaimLost_notAnUnknownOutcome() {
    claimedAndStarted();
    gatewayAnswers(CHARGED);
    payment.capture("ch_1");
    when(payments.recordCharge(payment.id(), CHARGED, Timeline.SHOP)).thenReturn(payment);
    ClaimLostException lost = new ClaimLostException(CLAIM);
    when(currentRequest.complete(any())).thenThrow(lost);

    assertThatThrownBy(() -> payOrder.pay(COMMAND)).isSameAs(lost);
  }

  @Test
  void anUnclaimedRequest_comparisonOnly_isItsOwnIntent() {
    when(currentRequest.claim()).thenReturn(Optional.empty());
    ArgumentCaptor<ClaimedKey> claim = ArgumentCaptor.forClass(ClaimedKey.class);
    when(payments.capturedEarlier(eq(COMMAND), claim.capture())).thenReturn(Optional.empty());
    when(payments.startPayment(eq(COMMAND), any())).thenReturn(payment);
    when(gateway.charge(any(), any())).thenThrow(new GatewayOutcomeUnknownException("lost", null));

    assertThatThrownBy(() -> payOrder.pay(COMMAND)).isInstanceOf(OutcomeUnknownException.class);

    assertThat(claim.getValue().tenant()).isEqualTo(Fixtures.TENANT);
    assertThat(claim.getValue().operation()).isEqualTo("payments.charge");
    assertThat(claim.getValue().key()).startsWith("unprotected-");
    verify(payments).startPayment(COMMAND, claim.getValue());
  }

  @Test
  void reconciliationAndOperators_recordTheChargeThenCompleteTheClaimWithTheSameAnswer() {
    when(payments.recordCharge(payment.id(), CHARGED, Timeline.RECONCILIATION))
        .thenAnswer(
            call -> {
              payment.capture("ch_1");
              return payment;
            });

    assertThat(payOrder.completeClaim(CLAIM, payment.id(), CHARGED)).isSameAs(payment);

    InOrder order = inOrder(payments, keys);
    order.verify(payments).recordCharge(payment.id(), CHARGED, Timeline.RECONCILIATION);
    ArgumentCaptor<Response> answer = ArgumentCaptor.forClass(Response.class);
    order.verify(keys).complete(eq(CLAIM), answer.capture());
    assertThat(answer.getValue().getStatus()).isEqualTo(201);
    assertThat(answer.getValue().getEntity()).isEqualTo(PaymentView.of(payment));
  }

  @Test
  void aPaymentSettledEarlier_completesTheClaimWithItsAnswer() throws Exception {
    payment.decline("ch_d");

    try (AutoCloseable configuration = Fixtures.noConfiguration()) {
      payOrder.completeClaim(CLAIM, payment);
    }

    ArgumentCaptor<Response> answer = ArgumentCaptor.forClass(Response.class);
    verify(keys).complete(eq(CLAIM), answer.capture());
    assertThat(answer.getValue().getStatus()).isEqualTo(402);
    verifyNoInteractions(payments, gateway);
  }
}
