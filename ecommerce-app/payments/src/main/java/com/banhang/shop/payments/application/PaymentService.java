package com.banhang.shop.payments.application;

import com.banhang.idempotency.ClaimedKey;
import com.banhang.shop.orders.api.PayableOrder;
import com.banhang.shop.orders.api.PayableOrders;
import com.banhang.shop.payments.api.TimelineEntry.Kind;
import com.banhang.shop.payments.domain.model.Payment;
import com.banhang.shop.payments.domain.model.PaymentAmountMismatchException;
import com.banhang.shop.payments.domain.model.PaymentNotFoundException;
import com.banhang.shop.payments.domain.model.PaymentRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.util.Optional;

/**
 * The life of a payment up to its settlement: started PENDING, then captured, declined or
 * abandoned, each change in a transaction of its own or of the caller (the gateway is never called
 * with a transaction open); and the reads of attempts. What the late-charge sweep finds after an
 * abandon is {@link DefaultLateChargeSweep}'s.
 */
@ApplicationScoped
public class PaymentService {

  @Inject PaymentRepository payments;
  @Inject PayableOrders orders;
  @Inject GatewayKeys gatewayKeys;
  @Inject Timeline timeline;
  @Inject PaymentEvents events;

  /**
   * Checks the order and commits a PENDING attempt for {@code claim} before anything is sent to the
   * gateway, so that a crash after the gateway call still leaves the key to ask the gateway with.
   *
   * @throws com.banhang.shop.orders.domain.model.OrderAlreadyPaidException when the order is paid
   * @throws PaymentAmountMismatchException when the amount is not the order's total
   * @throws com.banhang.shop.payments.domain.model.PaymentInProgressException when another attempt
   *     holds the order
   */
  @Transactional(Transactional.TxType.REQUIRES_NEW)
  public Payment startPayment(PayOrder.Command command, ClaimedKey claim) {
    PayableOrder order = orders.findUnpaid(command.tenantId(), command.orderId());
    if (order.total() != command.amount() || !order.currency().equals(command.currency())) {
      throw new PaymentAmountMismatchException(
          order.id(), order.total(), order.currency(), command.amount(), command.currency());
    }
    Payment payment =
        new Payment(
            command.tenantId(),
            order.id(),
            command.amount(),
            command.currency(),
            command.paymentMethod(),
            gatewayKey(command, claim, order.id()),
            claim.key(),
            claim.attempt());
    payments.add(payment);
    timeline.inTransaction(
        payment,
        Kind.ATTEMPT_STARTED,
        Timeline.CUSTOMER,
        "attempt "
            + claim.attempt()
            + " of the key: "
            + payment.amount()
            + " "
            + payment.currency()
            + " for order "
            + payment.orderId()
            + " with "
            + payment.paymentMethod()
            + ", committed PENDING before the gateway is called, under gateway key "
            + payment.gatewayKey());
    return payment;
  }

  /**
   * The gateway key of a new attempt. An earlier attempt of the same key with the same request
   * keeps its stored gateway key: a payment started before the key's derivation changed (or before
   * the secret was rotated) and retried after a release must ask the processor under the key its
   * first request may have charged under, never under a new one. Otherwise it is derived ({@link
   * GatewayKeys}).
   */
  private String gatewayKey(PayOrder.Command command, ClaimedKey claim, String orderId) {
    return payments
        .findLatestByKey(command.tenantId(), claim.key())
        .filter(
            earlier ->
                earlier.orderId().equals(orderId)
                    && earlier.amount() == command.amount()
                    && earlier.currency().equals(command.currency())
                    && earlier.paymentMethod().equals(command.paymentMethod()))
        .map(Payment::gatewayKey)
        .orElseGet(
            () ->
                gatewayKeys.derive(
                    claim, orderId, command.amount(), command.currency(), command.paymentMethod()));
  }

  /**
   * Records what the gateway did, in the caller's transaction; a captured charge pays the order.
   * The payment's and the order's changes are written before it returns, so that the caller's next
   * write, the completion of the key, is the transaction's last: the key's row is then locked only
   * from its own {@code UPDATE} to the commit, and a duplicate claim queued on it waits as little
   * as possible (on SQL Server at most 5 s, then 503; docs/sqlserver.md, "The key is written
   * last").
   *
   * <p>The settlement is written to the payment's timeline, and its event to the outbox, in the
   * same transaction, by {@code actor} (docs/payments.md, "The payment timeline"; docs/events.md).
   *
   * @return the settled payment, or the unchanged one if it was already settled (by another node)
   */
  @Transactional(Transactional.TxType.MANDATORY)
  public Payment recordCharge(String paymentId, PaymentGateway.Charge charge, String actor) {
    Payment payment =
        payments.lock(paymentId).orElseThrow(() -> new PaymentNotFoundException(paymentId));
    if (payment.status() != Payment.Status.PENDING) {
      return payment;
    }
    if (charge.succeeded()) {
      payment.capture(charge.chargeId());
      orders.markPaid(payment.tenantId(), payment.orderId());
    } else {
      payment.decline(charge.chargeId());
    }
    payments.flush();
    timeline.inTransaction(
        payment,
        charge.succeeded() ? Kind.CAPTURED : Kind.DECLINED,
        actor,
        charge.succeeded()
            ? "recorded as captured by charge "
                + charge.chargeId()
                + ": order "
                + payment.orderId()
                + " paid"
            : "recorded as declined by charge " + charge.chargeId() + ": nothing was taken");
    events.settled(payment, actor);
    return payment;
  }

  /**
   * The gateway certainly did not charge: the attempt lets go of the order. Written to the
   * payment's timeline, and its event to the outbox, in the same transaction, by {@code actor},
   * saying {@code why}.
   */
  @Transactional
  public Payment abandon(String paymentId, String actor, String why) {
    Payment payment =
        payments.lock(paymentId).orElseThrow(() -> new PaymentNotFoundException(paymentId));
    if (payment.status() == Payment.Status.PENDING) {
      payment.abandon();
      timeline.inTransaction(
          payment,
          Kind.ABANDONED,
          actor,
          why + ": the attempt let go of order " + payment.orderId());
      events.abandoned(payment, actor);
    }
    return payment;
  }

  /**
   * A captured attempt of the same key and request: the late-charge sweep recorded, after the key's
   * release, the charge its request made late. A new claim of the key answers with it instead of
   * starting an attempt (the order is paid by it).
   */
  public Optional<Payment> capturedEarlier(PayOrder.Command command, ClaimedKey claim) {
    return payments
        .findLatestByKey(command.tenantId(), claim.key())
        .filter(
            earlier ->
                earlier.status() == Payment.Status.CAPTURED
                    && earlier.orderId().equals(command.orderId())
                    && earlier.amount() == command.amount()
                    && earlier.currency().equals(command.currency())
                    && earlier.paymentMethod().equals(command.paymentMethod()));
  }

  /** The attempt that a claim of payments.charge started, if it got that far. */
  public Optional<Payment> paymentOf(ClaimedKey claim) {
    return payments.findByClaim(claim.tenant(), claim.key(), claim.attempt());
  }

  public Payment payment(String tenantId, String paymentId) {
    return payments
        .find(tenantId, paymentId)
        .orElseThrow(() -> new PaymentNotFoundException(paymentId));
  }
}
