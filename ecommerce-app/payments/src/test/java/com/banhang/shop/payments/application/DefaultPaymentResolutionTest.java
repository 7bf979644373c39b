package com.banhang.shop.payments.application;

import static com.banhang.shop.payments.application.Fixtures.AMOUNT;
import static com.banhang.shop.payments.application.Fixtures.GATEWAY_KEY;
import static com.banhang.shop.payments.application.Fixtures.KEY;
import static com.banhang.shop.payments.application.Fixtures.ORDER;
import static com.banhang.shop.payments.application.Fixtures.TENANT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
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
  private final IdempotencyRecord key = Fixtures.processing(Duration.ofHours(30));
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
    when(payOrder.completeClaim(any(), anyString(), any()))
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
      verify(payOrder).completeClaim(claim, payment.id(), new PaymentGateway.Charge(CHARGE, true));
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
      verify(payOrder).completeClaim(claim, payment.id(), new PaymentGateway.Charge(CHARGE, true));
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
      when(payOrder.completeClaim(any(), anyString(), any()))
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
      when(payments.abandon(payment.id()))
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
      verify(payments).abandon(payment.id());
      verify(keys).release(claim);
      verifyNoInteractions(gateway, payOrder);
    }

    @Test
    void aKeyWithoutAnAttemptIsOnlyReleased() {
      keyWithAttempt(null);
      when(keys.release(claim)).thenReturn(true);

      Resolution result = resolution.resolveAsNotCharged(TENANT, KEY);

      assertThat(result.result()).isEqualTo(Result.RESOLVED);
      assertThat(result.paymentId()).isNull();
      verify(payments, never()).abandon(anyString());
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
      when(payments.abandon(payment.id()))
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
      when(payments.abandon(payment.id()))
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

  private void assertNothingChanged() {
    verifyNoInteractions(payOrder);
    verify(payments, never()).abandon(anyString());
    verify(keys, never()).release(any());
    verify(keys, never()).complete(any(), any());
  }
}
