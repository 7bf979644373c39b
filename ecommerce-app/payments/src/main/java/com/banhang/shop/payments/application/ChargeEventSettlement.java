package com.banhang.shop.payments.application;

import com.banhang.idempotency.ClaimedKey;
import com.banhang.idempotency.IdempotencyKeys;
import com.banhang.idempotency.IdempotencyRecord;
import com.banhang.shop.payments.api.GatewayEventView.Status;
import com.banhang.shop.payments.api.TimelineEntry.Kind;
import com.banhang.shop.payments.domain.model.LateCharge;
import com.banhang.shop.payments.domain.model.Payment;
import com.banhang.shop.payments.domain.model.PaymentNotFoundException;
import com.banhang.shop.payments.domain.model.PaymentRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * What a charge event from the processor does to the payment made under its gateway key
 * (docs/payments.md, "Webhooks in"), decided with the payment's row locked, in the caller's
 * transaction, so that the event's outcome commits with what it changed:
 *
 * <ul>
 *   <li>the payment's outcome is unknown (its key processing, no request running on it): it is
 *       settled through reconciliation's fenced path ({@link PayOrder#completeClaim}), after the
 *       same checks of amount, currency and order; the key is completed with the answer its client
 *       would have had;
 *   <li>the payment's own request is still running (its lease holds): left for that request; the
 *       event is processed again after a wait;
 *   <li>the payment was recorded with the same outcome and charge: confirmed, nothing changed;
 *   <li>the payment was abandoned (its key released): the charge is a late charge, decided as the
 *       late-charge sweep decides it ({@link DefaultLateChargeSweep});
 *   <li>anything else contradicts the shop's record (a success for a declined payment, another
 *       charge, another amount, no payment at all): flagged for an operator, never applied.
 * </ul>
 *
 * Whatever arrives first, and however often, each event is decided against the payment's current
 * state, which only ever moves forward: the order of arrival changes nothing.
 */
@ApplicationScoped
public class ChargeEventSettlement {

  /** What the processing of one event found. */
  record Decision(Status status, String detail, String paymentId, boolean waits) {

    static Decision of(Status status, String detail, Payment payment) {
      return new Decision(status, detail, payment == null ? null : payment.id(), false);
    }

    static Decision waiting(String detail, Payment payment) {
      return new Decision(Status.PENDING, detail, payment.id(), true);
    }
  }

  @Inject PaymentRepository payments;
  @Inject PaymentService paymentService;
  @Inject IdempotencyKeys keys;
  @Inject PayOrder payOrder;
  @Inject DefaultLateChargeSweep lateCharges;
  @Inject Timeline timeline;

  @Transactional(Transactional.TxType.MANDATORY)
  Decision decide(ChargeEvent event) {
    PaymentGateway.ChargeDetails charge = event.charge();
    Optional<Payment> found = attemptOf(charge.gatewayKey());
    if (found.isEmpty()) {
      return Decision.of(
          Status.FLAGGED,
          "no payment of the shop was made under gateway key "
              + charge.gatewayKey()
              + ", yet the processor has "
              + said(charge)
              + ": check the processor; nothing was recorded",
          null);
    }
    Payment payment =
        payments
            .lock(found.get().id())
            .orElseThrow(() -> new PaymentNotFoundException(found.get().id()));
    Decision decision =
        switch (payment.status()) {
          case PENDING -> pending(event, payment);
          case CAPTURED, DECLINED -> recorded(event, payment);
          case ABANDONED -> abandoned(event, payment);
        };
    if (!decision.waits()) {
      timeline.inTransaction(
          payment,
          Kind.GATEWAY_EVENT,
          Timeline.GATEWAY_WEBHOOK,
          decision.status()
              + ": event "
              + event.eventId()
              + " ("
              + event.type()
              + ") "
              + decision.detail());
    }
    return decision;
  }

  /**
   * The attempt an event concerns among those made under its gateway key (a key's retries reuse its
   * gateway key): the one in flight, else the one recorded, else the newest abandoned one.
   */
  private Optional<Payment> attemptOf(String gatewayKey) {
    List<Payment> attempts = payments.findByGatewayKey(gatewayKey);
    return attempts.stream()
        .min(
            Comparator.comparingInt((Payment p) -> rank(p.status()))
                .thenComparing(Payment::createdAt, Comparator.reverseOrder()));
  }

  private static int rank(Payment.Status status) {
    return switch (status) {
      case PENDING -> 0;
      case CAPTURED -> 1;
      case DECLINED -> 2;
      case ABANDONED -> 3;
    };
  }

  private Decision pending(ChargeEvent event, Payment payment) {
    PaymentGateway.ChargeDetails charge = event.charge();
    List<String> differences = charge.differencesFrom(payment);
    if (!differences.isEmpty()) {
      return Decision.of(
          Status.FLAGGED,
          "is not this payment's charge: "
              + String.join("; ", differences)
              + ". Not applied; the payment's outcome stays unknown for an operator",
          payment);
    }
    Optional<IdempotencyRecord> record =
        keys.find(payment.tenantId(), PayOrder.OPERATION, payment.idempotencyKey());
    if (record.isEmpty() || record.get().status() != IdempotencyRecord.Status.PROCESSING) {
      return Decision.of(
          Status.FLAGGED,
          "says "
              + said(charge)
              + ", but the payment is pending while its key is "
              + record.map(r -> r.status().name()).orElse("gone")
              + ": not applied",
          payment);
    }
    ClaimedKey claim = record.get().claimedKey();
    Optional<Payment> attempt = paymentService.paymentOf(claim);
    if (attempt.isEmpty() || !attempt.get().id().equals(payment.id())) {
      return Decision.of(
          Status.FLAGGED,
          "says " + said(charge) + ", but the key's claim belongs to another attempt: not applied",
          payment);
    }
    if (!record.get().outcomeUnknown() && !record.get().leaseExpired()) {
      return Decision.waiting(
          "the payment's own request is still running (its lease lasts until "
              + record.get().lockedUntil()
              + "): processed again after it",
          payment);
    }
    Payment settled =
        payOrder.completeClaim(claim, payment.id(), charge.charge(), Timeline.GATEWAY_WEBHOOK);
    return Decision.of(
        Status.SETTLED,
        "settled the payment's unknown outcome: "
            + settled.status()
            + " by charge "
            + charge.chargeId()
            + "; its key was completed",
        payment);
  }

  private static Decision recorded(ChargeEvent event, Payment payment) {
    PaymentGateway.ChargeDetails charge = event.charge();
    boolean sameOutcome = charge.succeeded() == (payment.status() == Payment.Status.CAPTURED);
    List<String> differences = charge.differencesFrom(payment);
    if (sameOutcome
        && charge.chargeId().equals(payment.gatewayChargeId())
        && differences.isEmpty()) {
      return Decision.of(
          Status.CONFIRMED,
          "confirms the payment's record: " + payment.status() + " by charge " + charge.chargeId(),
          payment);
    }
    return Decision.of(
        Status.FLAGGED,
        "contradicts the payment's record: the processor says "
            + said(charge)
            + ", the shop recorded "
            + payment.status()
            + " by charge "
            + payment.gatewayChargeId()
            + (differences.isEmpty() ? "" : " (" + String.join("; ", differences) + ")")
            + ". Not applied; check the processor",
        payment);
  }

  private Decision abandoned(ChargeEvent event, Payment payment) {
    Optional<LateCharge> late =
        lateCharges.decide(payment.id(), event.charge(), Timeline.GATEWAY_WEBHOOK);
    if (late.isEmpty()) {
      return Decision.of(
          Status.CONFIRMED,
          "concerns an abandoned attempt whose late charge was already decided ("
              + payment.lateCharge()
              + ") or recorded by another attempt",
          payment);
    }
    return switch (late.get()) {
      case RECORDED ->
          Decision.of(
              Status.SETTLED,
              "recorded a late charge: the abandoned attempt was captured by charge "
                  + event.charge().chargeId()
                  + " and its order paid",
              payment);
      case DECLINED ->
          Decision.of(
              Status.CONFIRMED,
              "a late decline of an abandoned attempt: nothing was taken",
              payment);
      case DOUBLE_CHARGE, MISMATCH ->
          Decision.of(
              Status.FLAGGED,
              "flagged as a late charge (" + late.get() + "): " + payment.lateChargeDetail(),
              payment);
    };
  }

  /** A charge as the processor described it, in words. */
  static String said(PaymentGateway.ChargeDetails charge) {
    return (charge.succeeded() ? "succeeded" : "declined")
        + " charge "
        + charge.chargeId()
        + " of "
        + charge.amount()
        + " "
        + charge.currency()
        + " for order "
        + charge.orderReference();
  }
}
