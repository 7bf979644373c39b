package com.banhang.shop.payments.application;

import static com.banhang.shop.payments.application.Fixtures.AMOUNT;
import static com.banhang.shop.payments.application.Fixtures.GATEWAY_KEY;
import static com.banhang.shop.payments.application.Fixtures.KEY;
import static com.banhang.shop.payments.application.Fixtures.ORDER;
import static com.banhang.shop.payments.application.Fixtures.TENANT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import com.banhang.idempotency.ClaimLostException;
import com.banhang.idempotency.ClaimedKey;
import com.banhang.idempotency.IdempotencyKeys;
import com.banhang.idempotency.IdempotencyRecord;
import com.banhang.shop.payments.api.Resolution;
import com.banhang.shop.payments.api.Resolution.Result;
import com.banhang.shop.payments.domain.model.Payment;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

/** The operator's decisions on a payments.charge key, against mocked stores and gateway. */
@ExtendWith(MockitoExtension.class)
class DefaultPaymentResolutionTest {

  private static final String CHARGE = "ch_3kT9qLwV0bYxZ2aP7mNcR1sD";

  @Mock IdempotencyKeys keys;
  @Mock PaymentService payments;
  @Mock PaymentGateway gateway;
  @Mock PayOrder payOrder;

  private final DefaultPaymentResolution resolution = new DefaultPaymentResolution();

  /** A key reconciliation parked for an operator: one an operator may resolve. */
  private final IdempotencyRecord key =
      Fixtures.record(
          IdempotencyRecord.Status.PROCESSING,
          true,
          Instant.now().minus(Duration.ofHours(30)),
          "NEEDS_OPERATOR");

  private final ClaimedKey claim = key.claimedKey();
  private Payment payment;

  @BeforeEach
  void wire() {
    resolution.keys = keys;
    resolution.payments = payments;
    resolution.gateway = gateway;
    resolution.payOrder = payOrder;
    resolution.transaction = new OneTransaction();
    payment = Fixtures.pendingPayment();
  }

  private void keyWithAttempt(Payment attempt) {
    when(keys.find(TENANT, PayOrder.OPERATION, KEY)).thenReturn(Optional.of(key));
    when(payments.paymentOf(claim)).thenReturn(Optional.ofNullable(attempt));
  }

  private static PaymentGateway.ChargeDetails charge(
      boolean succeeded, long amount, String currency, String orderReference) {
    return new PaymentGateway.ChargeDetails(
        CHARGE, succeeded, amount, currency, orderReference, GATEWAY_KEY);
  }

  /** completeClaim as PayOrder does it: records the charge on the payment. */
  private void completionCaptures() {
    when(payOrder.completeClaim(any(), anyString(), any(), anyString()))
        .thenAnswer(
            call -> {
              PaymentGateway.Charge recorded = call.getArgument(2);
              payment.capture(recorded.chargeId());
              return payment;
            });
  }

  @Nested
  class ResolveAsCharged {

    @Test
    void aSucceededChargeOfThisAmountCurrencyAndOrderIsRecordedAndTheKeyCompleted() {
      keyWithAttempt(payment);
      when(gateway.findCharge(CHARGE)).thenReturn(Optional.of(charge(true, AMOUNT, "VND", ORDER)));
      completionCaptures();

      Resolution result = resolution.resolveAsCharged(TENANT, KEY, CHARGE, false);

      assertThat(result.result()).isEqualTo(Result.RESOLVED);
      assertThat(result.paymentId()).isEqualTo(payment.id());
      assertThat(result.orderId()).isEqualTo(ORDER);
      assertThat(result.message()).contains(CHARGE).doesNotContain("override");
      verify(payOrder)
          .completeClaim(
              claim, payment.id(), new PaymentGateway.Charge(CHARGE, true), Timeline.OPERATOR);
      assertThat(payment.status()).isEqualTo(Payment.Status.CAPTURED);
    }

    @Test
    void anotherAmountIsRefusedAndNothingChanges() {
      keyWithAttempt(payment);
      when(gateway.findCharge(CHARGE))
          .thenReturn(Optional.of(charge(true, AMOUNT - 1, "VND", ORDER)));

      Resolution result = resolution.resolveAsCharged(TENANT, KEY, CHARGE, true);

      assertThat(result.result()).isEqualTo(Result.REFUSED);
      assertThat(result.message()).contains("amount").contains(String.valueOf(AMOUNT - 1));
      assertThat(result.paymentId()).isEqualTo(payment.id());
      assertNothingChanged();
    }

    @Test
    void anotherCurrencyIsRefusedAndNothingChanges() {
      keyWithAttempt(payment);
      when(gateway.findCharge(CHARGE)).thenReturn(Optional.of(charge(true, AMOUNT, "USD", ORDER)));

      Resolution result = resolution.resolveAsCharged(TENANT, KEY, CHARGE, true);

      assertThat(result.result()).isEqualTo(Result.REFUSED);
      assertThat(result.message()).contains("currency").contains("USD");
      assertNothingChanged();
    }

    @Test
    void aChargeOfAnotherOrderIsRefusedAndNothingChanges() {
      keyWithAttempt(payment);
      when(gateway.findCharge(CHARGE))
          .thenReturn(Optional.of(charge(true, AMOUNT, "VND", "order-2")));

      Resolution result = resolution.resolveAsCharged(TENANT, KEY, CHARGE, true);

      assertThat(result.result()).isEqualTo(Result.REFUSED);
      assertThat(result.message()).contains("order-2").contains(ORDER);
      assertNothingChanged();
    }

    @Test
    void aDeclinedChargeIsRefusedEvenWithOverride() {
      keyWithAttempt(payment);
      when(gateway.findCharge(CHARGE)).thenReturn(Optional.of(charge(false, AMOUNT, "VND", ORDER)));

      Resolution result = resolution.resolveAsCharged(TENANT, KEY, CHARGE, true);

      assertThat(result.result()).isEqualTo(Result.REFUSED);
      assertThat(result.message()).contains("declined");
      assertNothingChanged();
    }

    @Test
    void aChargeTheGatewayDoesNotKnowNeedsConfirmation() {
      keyWithAttempt(payment);
      when(gateway.findCharge(CHARGE)).thenReturn(Optional.empty());

      Resolution result = resolution.resolveAsCharged(TENANT, KEY, CHARGE, false);

      assertThat(result.result()).isEqualTo(Result.CONFIRMATION_NEEDED);
      assertThat(result.message()).contains("does not know").contains(CHARGE);
      assertThat(result.paymentId()).isEqualTo(payment.id());
      assertNothingChanged();
    }

    @Test
    void aChargeTheGatewayDoesNotKnowIsRecordedOnTheOperatorsOverride() {
      keyWithAttempt(payment);
      when(gateway.findCharge(CHARGE)).thenReturn(Optional.empty());
      completionCaptures();

      Resolution result = resolution.resolveAsCharged(TENANT, KEY, CHARGE, true);

      assertThat(result.result()).isEqualTo(Result.RESOLVED);
      assertThat(result.message()).contains("override");
      verify(payOrder)
          .completeClaim(
              claim, payment.id(), new PaymentGateway.Charge(CHARGE, true), Timeline.OPERATOR);
    }

    @Test
    void anUnreachableGatewayFailsAndNothingChanges() {
      keyWithAttempt(payment);
      when(gateway.findCharge(CHARGE))
          .thenThrow(new GatewayUnavailableException("connection refused", null));

      Resolution result = resolution.resolveAsCharged(TENANT, KEY, CHARGE, true);

      assertThat(result.result()).isEqualTo(Result.FAILED);
      assertThat(result.message()).contains("could not be asked");
      assertNothingChanged();
    }

    @Test
    void anAttemptThatIsNotPendingIsRefusedWithoutAskingTheGateway() {
      payment.decline("ch_declined");
      keyWithAttempt(payment);

      Resolution result = resolution.resolveAsCharged(TENANT, KEY, CHARGE, true);

      assertThat(result.result()).isEqualTo(Result.REFUSED);
      assertThat(result.message()).contains("declined").contains("reconcile");
      verifyNoInteractions(gateway);
      assertNothingChanged();
    }

    @Test
    void aKeyWithoutAnAttemptIsRefused() {
      keyWithAttempt(null);

      Resolution result = resolution.resolveAsCharged(TENANT, KEY, CHARGE, true);

      assertThat(result.result()).isEqualTo(Result.REFUSED);
      assertThat(result.message()).contains("not charged");
      verifyNoInteractions(gateway);
      assertNothingChanged();
    }

    @Test
    void aKeyThatIsNoLongerProcessingIsRefused() {
      when(keys.find(TENANT, PayOrder.OPERATION, KEY))
          .thenReturn(
              Optional.of(
                  Fixtures.record(IdempotencyRecord.Status.COMPLETED, false, Instant.now(), null)));

      Resolution result = resolution.resolveAsCharged(TENANT, KEY, CHARGE, true);

      assertThat(result.result()).isEqualTo(Result.REFUSED);
      assertThat(result.message()).contains("COMPLETED");
      verifyNoInteractions(gateway, payments);
      assertNothingChanged();
    }

    @Test
    void aKeySettledMeanwhileIsRefused() {
      keyWithAttempt(payment);
      when(gateway.findCharge(CHARGE)).thenReturn(Optional.of(charge(true, AMOUNT, "VND", ORDER)));
      when(payOrder.completeClaim(any(), anyString(), any(), anyString()))
          .thenThrow(new ClaimLostException(claim));

      Resolution result = resolution.resolveAsCharged(TENANT, KEY, CHARGE, false);

      assertThat(result.result()).isEqualTo(Result.REFUSED);
      assertThat(result.message()).contains("settled meanwhile");
    }
  }

  @Nested
  class ResolveAsNotCharged {

    @Test
    void aPendingAttemptIsAbandonedAndTheKeyReleased() {
      keyWithAttempt(payment);
      when(payments.abandon(eq(payment.id()), eq(Timeline.OPERATOR), anyString()))
          .thenAnswer(
              call -> {
                payment.abandon();
                return payment;
              });
      when(keys.release(claim)).thenReturn(true);

      Resolution result = resolution.resolveAsNotCharged(TENANT, KEY);

      assertThat(result.result()).isEqualTo(Result.RESOLVED);
      assertThat(result.paymentId()).isEqualTo(payment.id());
      assertThat(result.message()).contains("abandoned").contains("released");
      verify(payments).abandon(eq(payment.id()), eq(Timeline.OPERATOR), anyString());
      verify(keys).release(claim);
      // The gateway was asked first, by the payment's gateway key, and had nothing.
      verify(gateway).findByKey(GATEWAY_KEY);
      verifyNoInteractions(payOrder);
    }

    @Test
    void aKeyWithoutAnAttemptIsOnlyReleased() {
      keyWithAttempt(null);
      when(keys.release(claim)).thenReturn(true);

      Resolution result = resolution.resolveAsNotCharged(TENANT, KEY);

      assertThat(result.result()).isEqualTo(Result.RESOLVED);
      assertThat(result.paymentId()).isNull();
      verify(payments, never()).abandon(anyString(), anyString(), anyString());
      verify(keys).release(claim);
    }

    @Test
    void aCapturedAttemptIsRefused() {
      payment.capture(CHARGE);
      keyWithAttempt(payment);

      Resolution result = resolution.resolveAsNotCharged(TENANT, KEY);

      assertThat(result.result()).isEqualTo(Result.REFUSED);
      assertThat(result.message()).contains("captured").contains(CHARGE);
      assertNothingChanged();
    }

    @Test
    void aDeclinedAttemptIsRefused() {
      payment.decline("ch_declined");
      keyWithAttempt(payment);

      Resolution result = resolution.resolveAsNotCharged(TENANT, KEY);

      assertThat(result.result()).isEqualTo(Result.REFUSED);
      assertThat(result.message()).contains("declined");
      assertNothingChanged();
    }

    @Test
    void anAttemptCapturedBetweenTheReadAndTheLockIsRefusedAndTheKeyKept() {
      keyWithAttempt(payment);
      when(payments.abandon(eq(payment.id()), eq(Timeline.OPERATOR), anyString()))
          .thenAnswer(
              call -> {
                payment.capture(CHARGE);
                return payment;
              });

      Resolution result = resolution.resolveAsNotCharged(TENANT, KEY);

      assertThat(result.result()).isEqualTo(Result.REFUSED);
      verify(keys, never()).release(any());
    }

    @Test
    void aKeyReleasedMeanwhileIsRefused() {
      keyWithAttempt(null);
      when(keys.release(claim)).thenReturn(false);

      Resolution result = resolution.resolveAsNotCharged(TENANT, KEY);

      assertThat(result.result()).isEqualTo(Result.REFUSED);
      assertThat(result.message()).contains("settled meanwhile");
    }

    @Test
    void anUnknownKeyIsRefused() {
      when(keys.find(TENANT, PayOrder.OPERATION, KEY)).thenReturn(Optional.empty());

      Resolution result = resolution.resolveAsNotCharged(TENANT, KEY);

      assertThat(result.result()).isEqualTo(Result.REFUSED);
      assertThat(result.message()).contains("has no payments.charge key");
      verifyNoInteractions(payments);
      verify(keys, never()).release(any());
    }
  }

  /**
   * The caller's audit entry is written inside the one transaction that makes the resolution's
   * change (OneTransaction here records whether work runs inside it), and its failure undoes it.
   */
  @Nested
  class AuditInTheSameTransaction {

    private final java.util.List<String> events = new java.util.ArrayList<>();
    private boolean inside;

    @BeforeEach
    void recordTheTransaction() {
      resolution.transaction =
          new OneTransaction() {
            @Override
            public <T> T run(java.util.function.Supplier<T> work) {
              inside = true;
              events.add("begin");
              try {
                T result = work.get();
                events.add("commit");
                return result;
              } catch (RuntimeException e) {
                events.add("rollback");
                throw e;
              } finally {
                inside = false;
              }
            }
          };
    }

    private com.banhang.shop.payments.api.ResolutionAudit audit() {
      return r -> {
        assertThat(inside).as("the audit runs inside the resolution's transaction").isTrue();
        events.add("audit " + r.result());
      };
    }

    private void pendingAttemptAbandoned() {
      keyWithAttempt(payment);
      when(payments.abandon(eq(payment.id()), eq(Timeline.OPERATOR), anyString()))
          .thenAnswer(
              call -> {
                events.add("abandon");
                payment.abandon();
                return payment;
              });
    }

    @Test
    void notCharged_abandonReleaseAndAuditCommitTogether() {
      pendingAttemptAbandoned();
      when(keys.release(claim))
          .thenAnswer(
              call -> {
                events.add("release");
                return true;
              });

      Resolution result = resolution.resolveAsNotCharged(TENANT, KEY, audit());

      assertThat(result.result()).isEqualTo(Result.RESOLVED);
      assertThat(events).containsExactly("begin", "abandon", "release", "audit RESOLVED", "commit");
    }

    @Test
    void notCharged_anAuditThatCannotBeWrittenRollsTheResolutionBack() {
      pendingAttemptAbandoned();
      when(keys.release(claim)).thenReturn(true);

      org.assertj.core.api.Assertions.assertThatThrownBy(
              () ->
                  resolution.resolveAsNotCharged(
                      TENANT,
                      KEY,
                      r -> {
                        throw new IllegalStateException("cannot write the operator audit");
                      }))
          .hasMessageContaining("operator audit");
      assertThat(events).containsExactly("begin", "abandon", "rollback");
    }

    @Test
    void charged_aFailingAuditChangesNothing() {
      keyWithAttempt(payment);
      when(gateway.findCharge(CHARGE)).thenReturn(Optional.of(charge(true, AMOUNT, "VND", ORDER)));
      completionCaptures();

      Resolution failed =
          resolution.resolveAsCharged(
              TENANT,
              KEY,
              CHARGE,
              false,
              r -> {
                throw new IllegalStateException("cannot write the operator audit");
              });

      assertThat(failed.result()).isEqualTo(Result.FAILED);
      assertThat(failed.message()).contains("nothing was changed");
      assertThat(events).containsExactly("begin", "rollback");
    }

    @Test
    void charged_captureAndAuditCommitTogether() {
      keyWithAttempt(payment);
      when(gateway.findCharge(CHARGE)).thenReturn(Optional.of(charge(true, AMOUNT, "VND", ORDER)));
      completionCaptures();

      Resolution resolved = resolution.resolveAsCharged(TENANT, KEY, CHARGE, false, audit());

      assertThat(resolved.result()).isEqualTo(Result.RESOLVED);
      assertThat(events).containsExactly("begin", "audit RESOLVED", "commit");
    }

    @Test
    void aRefusalChangesNothingAndLeavesTheRecordToTheCaller() {
      keyWithAttempt(payment);
      when(gateway.findCharge(CHARGE))
          .thenReturn(Optional.of(charge(true, AMOUNT - 1, "VND", ORDER)));

      Resolution result = resolution.resolveAsCharged(TENANT, KEY, CHARGE, true, audit());

      assertThat(result.result()).isEqualTo(Result.REFUSED);
      assertThat(events).isEmpty();
    }
  }

  /**
   * A key an operator may not resolve yet ({@code PaymentResolution.resolvable}), and a key whose
   * payment the gateway charged or declined after all: refused, with why, and nothing changed.
   */
  @Nested
  class Refusals {

    private void keyIs(String lastCheck, Instant lockedUntil) {
      when(keys.find(TENANT, PayOrder.OPERATION, KEY))
          .thenReturn(
              Optional.of(
                  Fixtures.record(
                      IdempotencyRecord.Status.PROCESSING, true, lockedUntil, lastCheck)));
    }

    @Test
    void aKeyNobodyChecked_isRefusedBothWays_evenWithItsLeaseRunOut() {
      keyIs(null, Instant.now().minusSeconds(600));

      Resolution charged = resolution.resolveAsCharged(TENANT, KEY, CHARGE, true);
      Resolution notCharged = resolution.resolveAsNotCharged(TENANT, KEY);

      for (Resolution refused : java.util.List.of(charged, notCharged)) {
        assertThat(refused.result()).isEqualTo(Result.REFUSED);
        assertThat(refused.message())
            .contains("has not checked this key")
            .contains("reconcile the key first")
            .contains("Nothing was changed");
      }
      verifyNoInteractions(gateway);
      verify(payments, never()).paymentOf(any());
      assertNothingChanged();
    }

    @Test
    void aKeyWhoseRequestMayStillRun_isRefusedBothWays_unlessItNeedsAnOperator() {
      Instant lockedUntil = Instant.now().plusSeconds(60);
      keyIs("GATEWAY_UNREACHABLE", lockedUntil);

      Resolution charged = resolution.resolveAsCharged(TENANT, KEY, CHARGE, false);
      Resolution notCharged = resolution.resolveAsNotCharged(TENANT, KEY);

      for (Resolution refused : java.util.List.of(charged, notCharged)) {
        assertThat(refused.result()).isEqualTo(Result.REFUSED);
        assertThat(refused.message())
            .contains("GATEWAY_UNREACHABLE")
            .contains("may still be running")
            .contains(lockedUntil.toString());
      }
      verifyNoInteractions(gateway);
      assertNothingChanged();
    }

    @Test
    void aKeyNeverCheckedWhoseLeaseRuns_isRefused() {
      keyIs(null, Instant.now().plusSeconds(60));

      Resolution refused = resolution.resolveAsNotCharged(TENANT, KEY);

      assertThat(refused.result()).isEqualTo(Result.REFUSED);
      assertThat(refused.message()).contains("has not checked").contains("may still be running");
      verifyNoInteractions(gateway);
      assertNothingChanged();
    }

    @Test
    void aCheckedKeyWhoseLeaseRanOut_mayBeResolved() {
      keyIs("GATEWAY_UNREACHABLE", Instant.now().minusSeconds(1));
      when(payments.paymentOf(claim)).thenReturn(Optional.of(payment));
      when(payments.abandon(eq(payment.id()), eq(Timeline.OPERATOR), anyString()))
          .thenAnswer(
              call -> {
                payment.abandon();
                return payment;
              });
      when(keys.release(claim)).thenReturn(true);

      assertThat(resolution.resolveAsNotCharged(TENANT, KEY).result()).isEqualTo(Result.RESOLVED);
    }

    @Test
    void notCharged_butTheGatewayHasASucceededChargeOfThisPayment_isRefused_sayingWhatItSaid() {
      keyWithAttempt(payment);
      when(gateway.findByKey(GATEWAY_KEY))
          .thenReturn(Optional.of(charge(true, AMOUNT, "VND", ORDER)));

      Resolution refused = resolution.resolveAsNotCharged(TENANT, KEY);

      assertThat(refused.result()).isEqualTo(Result.REFUSED);
      assertThat(refused.paymentId()).isEqualTo(payment.id());
      assertThat(refused.message())
          .contains(CHARGE)
          .contains(String.valueOf(AMOUNT))
          .contains("VND")
          .contains(ORDER)
          .contains("resolve the key as charged instead");
      assertNothingChanged();
    }

    @Test
    void notCharged_butTheGatewayDeclinedThisPayment_isRefused() {
      keyWithAttempt(payment);
      when(gateway.findByKey(GATEWAY_KEY))
          .thenReturn(Optional.of(charge(false, AMOUNT, "VND", ORDER)));

      Resolution refused = resolution.resolveAsNotCharged(TENANT, KEY);

      assertThat(refused.result()).isEqualTo(Result.REFUSED);
      assertThat(refused.message()).contains("declined").contains(CHARGE).contains("reconcile");
      assertNothingChanged();
    }

    @Test
    void notCharged_butTheGatewayHasAChargeThatIsNotThisPayments_isRefused() {
      keyWithAttempt(payment);
      when(gateway.findByKey(GATEWAY_KEY))
          .thenReturn(Optional.of(charge(true, AMOUNT + 1, "VND", ORDER)));

      Resolution refused = resolution.resolveAsNotCharged(TENANT, KEY);

      assertThat(refused.result()).isEqualTo(Result.REFUSED);
      assertThat(refused.message())
          .contains(CHARGE)
          .contains("not this payment's")
          .contains(String.valueOf(AMOUNT + 1));
      assertNothingChanged();
    }

    @Test
    void notCharged_anAbandonedAttemptWhoseChargeLandedLate_isRefusedToo() {
      payment.abandon();
      keyWithAttempt(payment);
      when(gateway.findByKey(GATEWAY_KEY))
          .thenReturn(Optional.of(charge(true, AMOUNT, "VND", ORDER)));

      Resolution refused = resolution.resolveAsNotCharged(TENANT, KEY);

      assertThat(refused.result()).isEqualTo(Result.REFUSED);
      assertThat(refused.message()).contains(CHARGE).contains("charged");
      assertNothingChanged();
    }

    @Test
    void notCharged_withTheGatewayUnavailable_fails_andNothingChanges() {
      keyWithAttempt(payment);
      when(gateway.findByKey(GATEWAY_KEY))
          .thenThrow(new GatewayUnavailableException("circuit open", null));

      Resolution failed = resolution.resolveAsNotCharged(TENANT, KEY);

      assertThat(failed.result()).isEqualTo(Result.FAILED);
      assertThat(failed.message()).contains("circuit open").contains("nothing was changed");
      assertNothingChanged();
    }
  }

  private void assertNothingChanged() {
    verifyNoInteractions(payOrder);
    verify(payments, never()).abandon(anyString(), anyString(), anyString());
    verify(keys, never()).release(any());
    verify(keys, never()).complete(any(), any());
  }
}
