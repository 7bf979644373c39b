package com.banhang.shop.payments.application;

import com.banhang.idempotency.ClaimLostException;
import com.banhang.idempotency.ClaimedKey;
import com.banhang.idempotency.IdempotencyKeys;
import com.banhang.idempotency.IdempotencyRecord;
import com.banhang.shop.payments.api.PaymentResolution;
import com.banhang.shop.payments.api.Resolution;
import com.banhang.shop.payments.api.Resolution.Result;
import com.banhang.shop.payments.api.ResolutionAudit;
import com.banhang.shop.payments.domain.model.Payment;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.PersistenceException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What an operator does with a payments.charge key that reconciliation cannot settle (typically
 * {@code NEEDS_OPERATOR}: the gateway no longer knows the payment's gateway key, so it may have
 * forgotten a charge). The operator says what happened, after checking the processor:
 *
 * <ul>
 *   <li>{@link #resolveAsCharged}: the customer was charged, with this charge id. The charge is
 *       looked up by its id and accepted only if it is a succeeded charge of exactly this payment's
 *       amount, currency and order; then the payment is captured, the order paid and the key
 *       completed with the 201 the customer would have had, in one transaction. A charge id the
 *       gateway does not know is accepted only on the operator's explicit confirmation.
 *   <li>{@link #resolveAsNotCharged}: nothing was charged. The pending attempt is abandoned and the
 *       key released, so the order can be paid again and the customer's retry runs as new.
 * </ul>
 *
 * <p>Expected refusals are answers ({@link Resolution}), never exceptions; each says why. Every
 * write is fenced by the key's current claim, as reconciliation's are, so a resolution that races
 * with reconciliation or the customer's retry changes nothing and says so. No transaction is open
 * while the gateway is asked.
 */
@ApplicationScoped
public class DefaultPaymentResolution implements PaymentResolution {

  private static final Logger LOG = Logger.getLogger(DefaultPaymentResolution.class.getName());

  @Inject IdempotencyKeys keys;
  @Inject PaymentService payments;
  @Inject PaymentGateway gateway;
  @Inject PayOrder payOrder;
  @Inject OneTransaction transaction;

  /**
   * Records the payment of the key as captured by {@code chargeId} and completes the key with the
   * 201.
   *
   * @param override record it even though the gateway does not know {@code chargeId} (the operator
   *     confirmed the charge elsewhere, e.g. in the processor's dashboard); never overrides a
   *     declined charge or one of another amount, currency or order
   */
  @Override
  public Resolution resolveAsCharged(
      String tenant, String key, String chargeId, boolean override, ResolutionAudit audit) {
    if (chargeId == null || chargeId.isBlank()) {
      return refused("a charge id is needed to resolve the key as charged", null);
    }
    Target target = pendingTarget(tenant, key, "as charged");
    if (target.refusal() != null) {
      return target.refusal();
    }
    Payment payment = target.payment();
    Optional<PaymentGateway.ChargeDetails> found;
    try {
      found = gateway.findCharge(chargeId);
    } catch (GatewayUnavailableException e) {
      return new Resolution(
          Result.FAILED,
          "the gateway could not be asked about charge "
              + chargeId
              + " ("
              + e.getMessage()
              + "); nothing was changed, try again later",
          payment.id(),
          payment.orderId());
    }
    if (found.isEmpty()) {
      if (!override) {
        return new Resolution(
            Result.CONFIRMATION_NEEDED,
            "the gateway does not know charge "
                + chargeId
                + "; nothing was changed. Confirm only if you are sure the customer was charged"
                + " for order "
                + payment.orderId()
                + " ("
                + amountOf(payment)
                + "): the payment is then recorded as captured by this charge",
            payment.id(),
            payment.orderId());
      }
      return capture(
          target.claim(),
          payment,
          chargeId,
          "recorded as captured on the operator's confirmation (override): the gateway does not"
              + " know charge "
              + chargeId,
          audit);
    }
    PaymentGateway.ChargeDetails charge = found.get();
    List<String> mismatches = mismatches(charge, payment);
    if (!mismatches.isEmpty()) {
      return refused(
          "charge "
              + chargeId
              + " is not this payment's: "
              + String.join("; ", mismatches)
              + ". Nothing was changed",
          payment);
    }
    String note =
        payment.gatewayKey().equals(charge.gatewayKey())
            ? ""
            : " (the charge was made under gateway key "
                + charge.gatewayKey()
                + ", not this payment's "
                + payment.gatewayKey()
                + ")";
    return capture(
        target.claim(),
        payment,
        chargeId,
        "the gateway confirms charge " + chargeId + " of " + amountOf(payment) + note,
        audit);
  }

  /**
   * Records that nothing was charged: a pending attempt is abandoned (the order may be paid again)
   * and the key released, so the customer's retry runs as new. A key whose current claim committed
   * no attempt (nothing was sent) is only released.
   */
  @Override
  public Resolution resolveAsNotCharged(String tenant, String key, ResolutionAudit audit) {
    Optional<IdempotencyRecord> record = processingKey(tenant, key);
    if (record.isEmpty()) {
      return notProcessing(tenant, key, "as not charged");
    }
    Optional<Resolution> notYet = notResolvable(record.get(), "as not charged");
    if (notYet.isPresent()) {
      return notYet.get();
    }
    ClaimedKey claim = record.get().claimedKey();
    try {
      Optional<Payment> attempt = payments.paymentOf(claim);
      if (attempt.isEmpty()) {
        return release(
            claim,
            null,
            "no payment was committed under this key, so nothing was sent to the gateway:"
                + " the key was released and the customer's retry runs anew",
            audit);
      }
      Payment payment = attempt.get();
      if (payment.status() == Payment.Status.CAPTURED
          || payment.status() == Payment.Status.DECLINED) {
        return refused(settledMessage(payment), payment);
      }
      // Asked with no transaction open: whatever the operator believes, a charge the gateway holds
      // under this payment's gateway key must not be released (the customer's retry would then
      // run as new and the order could be paid twice).
      Optional<Resolution> charged = askGatewayFirst(payment);
      if (charged.isPresent()) {
        return charged.get();
      }
      return payment.status() == Payment.Status.ABANDONED
          ? release(
              claim,
              payment,
              "the payment was already abandoned and the gateway has no charge under its gateway"
                  + " key: the key was released and the customer's retry runs anew",
              audit)
          : abandonAndRelease(claim, payment, audit);
    } catch (ClaimLostException | PersistenceException e) {
      return settledMeanwhile(null);
    }
  }

  /**
   * What the gateway holds under the payment's gateway key, as a refusal when it holds anything: a
   * succeeded charge of this payment (resolve as charged instead), a declined one (reconcile the
   * key to complete it with the decline) or one that is not this payment's (check the processor);
   * FAILED when it cannot be asked. Empty when it has no charge under the key: the resolution may
   * go on.
   */
  private Optional<Resolution> askGatewayFirst(Payment payment) {
    Optional<PaymentGateway.ChargeDetails> found;
    try {
      found = gateway.findByKey(payment.gatewayKey());
    } catch (GatewayUnavailableException e) {
      return Optional.of(
          new Resolution(
              Result.FAILED,
              "the gateway could not be asked whether it charged under gateway key "
                  + payment.gatewayKey()
                  + " ("
                  + e.getMessage()
                  + "); nothing was changed, try again later",
              payment.id(),
              payment.orderId()));
    }
    if (found.isEmpty()) {
      return Optional.empty();
    }
    PaymentGateway.ChargeDetails charge = found.get();
    String said =
        "the gateway has "
            + (charge.succeeded() ? "succeeded" : "declined")
            + " charge "
            + charge.chargeId()
            + " of "
            + charge.amount()
            + " "
            + charge.currency()
            + " for order "
            + charge.orderReference()
            + " under this payment's gateway key "
            + payment.gatewayKey();
    List<String> differences = charge.differencesFrom(payment);
    if (!differences.isEmpty()) {
      return Optional.of(
          refused(
              said
                  + ", but it is not this payment's: "
                  + String.join("; ", differences)
                  + ". Nothing was changed; check the processor before resolving the key",
              payment));
    }
    if (!charge.succeeded()) {
      return Optional.of(
          refused(
              said
                  + ": nothing was taken, but the card was declined rather than never charged."
                  + " Nothing was changed; reconcile the key to complete it with the decline",
              payment));
    }
    return Optional.of(
        refused(
            said
                + ": the customer was charged. Nothing was changed; resolve the key as charged"
                + " instead, with charge "
                + charge.chargeId(),
            payment));
  }

  /**
   * The refusal of a key an operator may not resolve yet ({@link PaymentResolution#resolvable}):
   * its request may still be running, or nobody has asked the gateway about it. Empty when it may
   * be resolved.
   */
  private static Optional<Resolution> notResolvable(IdempotencyRecord record, String what) {
    if (PaymentResolution.resolvable(record.lastCheck(), record.leaseExpired())) {
      return Optional.empty();
    }
    String why =
        record.lastCheck() == null
            ? "reconciliation has not checked this key with the gateway yet"
            : "its last check was " + record.lastCheck() + ", not NEEDS_OPERATOR";
    String lease =
        record.leaseExpired()
            ? ""
            : "; its request may still be running (its lease lasts until "
                + record.lockedUntil()
                + ")";
    return Optional.of(
        refused(
            "the key cannot be resolved "
                + what
                + " yet: "
                + why
                + lease
                + ". Nothing was changed; reconcile the key first (once its lease has run out),"
                + " and resolve it if reconciliation cannot",
            null));
  }

  /**
   * Abandons the attempt and releases the key in one transaction with the operator's audit entry. A
   * payment settled meanwhile, or a key taken over meanwhile, changes nothing the audit would name:
   * answered without {@code audit}, as before (the abandon of a key taken over still holds).
   */
  private Resolution abandonAndRelease(ClaimedKey claim, Payment payment, ResolutionAudit audit) {
    return transaction.run(
        () -> {
          Payment abandoned =
              payments.abandon(
                  payment.id(),
                  Timeline.OPERATOR,
                  "resolved as not charged by an operator; the gateway has no charge under gateway"
                      + " key "
                      + payment.gatewayKey());
          if (abandoned.status() != Payment.Status.ABANDONED) {
            // Settled between our read and the lock: it was charged or declined after all.
            return refused(settledMessage(abandoned), abandoned);
          }
          if (!keys.release(claim)) {
            return settledMeanwhile(abandoned);
          }
          return audited(
              audit,
              resolved(
                  "payment "
                      + payment.id()
                      + " was abandoned and the key released: order "
                      + payment.orderId()
                      + " can be paid again and the customer's retry runs anew",
                  abandoned));
        });
  }

  private Resolution release(
      ClaimedKey claim, Payment payment, String message, ResolutionAudit audit) {
    return transaction.run(
        () ->
            keys.release(claim)
                ? audited(audit, resolved(message, payment))
                : settledMeanwhile(payment));
  }

  private static Resolution resolved(String message, Payment payment) {
    return new Resolution(
        Result.RESOLVED,
        message,
        payment == null ? null : payment.id(),
        payment == null ? null : payment.orderId());
  }

  /** Writes the caller's audit entry inside the running transaction; its failure rolls it back. */
  private static Resolution audited(ResolutionAudit audit, Resolution resolution) {
    audit.record(resolution);
    return resolution;
  }

  /**
   * Captures the payment and completes the key in one transaction, fenced by the claim, with the
   * operator's audit entry.
   */
  private Resolution capture(
      ClaimedKey claim, Payment payment, String chargeId, String why, ResolutionAudit audit) {
    try {
      return transaction.run(
          () -> {
            Payment settled =
                payOrder.completeClaim(
                    claim,
                    payment.id(),
                    new PaymentGateway.Charge(chargeId, true),
                    Timeline.OPERATOR);
            if (settled.status() != Payment.Status.CAPTURED
                || !chargeId.equals(settled.gatewayChargeId())) {
              // Settled by reconciliation or the request between our read and the lock; the key
              // now answers with that settlement, which is what happened at the gateway.
              return refused(settledMessage(settled) + "; the key now answers with that", settled);
            }
            return audited(
                audit,
                new Resolution(
                    Result.RESOLVED,
                    why
                        + ": payment "
                        + settled.id()
                        + " captured, order "
                        + settled.orderId()
                        + " paid, and the key completed with the answer the customer would have"
                        + " had (201)",
                    settled.id(),
                    settled.orderId()));
          });
    } catch (ClaimLostException | PersistenceException e) {
      return settledMeanwhile(payment);
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "could not record an operator's charge for a payments.charge key", e);
      return new Resolution(
          Result.FAILED,
          "could not record the charge ("
              + e.getClass().getSimpleName()
              + "); nothing was changed, try again later",
          payment.id(),
          payment.orderId());
    }
  }

  private static List<String> mismatches(PaymentGateway.ChargeDetails charge, Payment payment) {
    List<String> mismatches = new ArrayList<>();
    if (!charge.succeeded()) {
      mismatches.add("the gateway declined it, so the customer was not charged by it");
    }
    mismatches.addAll(charge.differencesFrom(payment));
    return mismatches;
  }

  /** The key and its pending attempt, or the refusal that says why there is none. */
  private record Target(ClaimedKey claim, Payment payment, Resolution refusal) {}

  private Target pendingTarget(String tenant, String key, String what) {
    Optional<IdempotencyRecord> record = processingKey(tenant, key);
    if (record.isEmpty()) {
      return new Target(null, null, notProcessing(tenant, key, what));
    }
    Optional<Resolution> notYet = notResolvable(record.get(), what);
    if (notYet.isPresent()) {
      return new Target(null, null, notYet.get());
    }
    ClaimedKey claim = record.get().claimedKey();
    Optional<Payment> attempt = payments.paymentOf(claim);
    if (attempt.isEmpty()) {
      return new Target(
          claim,
          null,
          refused(
              "no payment was committed under this key, so nothing was sent to the"
                  + " gateway and nobody was charged; resolve it as not charged instead",
              null));
    }
    Payment payment = attempt.get();
    if (payment.status() != Payment.Status.PENDING) {
      return new Target(claim, payment, refused(settledMessage(payment), payment));
    }
    return new Target(claim, payment, null);
  }

  private Optional<IdempotencyRecord> processingKey(String tenant, String key) {
    return keys.find(tenant, PayOrder.OPERATION, key)
        .filter(record -> record.status() == IdempotencyRecord.Status.PROCESSING);
  }

  private Resolution notProcessing(String tenant, String key, String what) {
    Optional<IdempotencyRecord> record = keys.find(tenant, PayOrder.OPERATION, key);
    String why =
        record.isEmpty()
            ? "tenant " + tenant + " has no payments.charge key " + key
            : "the key is " + record.get().status() + ", no longer in processing";
    return refused(why + ": there is nothing to resolve " + what, null);
  }

  private static String settledMessage(Payment payment) {
    String charge =
        payment.gatewayChargeId() == null ? "" : " (charge " + payment.gatewayChargeId() + ")";
    return switch (payment.status()) {
      case CAPTURED ->
          "payment "
              + payment.id()
              + " is already captured"
              + charge
              + ": the customer was charged; reconcile the key instead to complete it";
      case DECLINED ->
          "payment "
              + payment.id()
              + " was declined by the gateway"
              + charge
              + ": nothing was charged; reconcile the key instead to complete it with the decline";
      case ABANDONED ->
          "payment "
              + payment.id()
              + " was abandoned (nothing was charged); resolve the key as not charged or reconcile"
              + " it instead";
      case PENDING -> "payment " + payment.id() + " is still pending";
    };
  }

  private static Resolution settledMeanwhile(Payment payment) {
    return refused(
        "the key was settled meanwhile by reconciliation or the customer's retry; nothing was"
            + " changed by this resolution, look at the key again",
        payment);
  }

  private static Resolution refused(String message, Payment payment) {
    return new Resolution(
        Result.REFUSED,
        message,
        payment == null ? null : payment.id(),
        payment == null ? null : payment.orderId());
  }

  private static String amountOf(Payment payment) {
    return payment.amount() + " " + payment.currency();
  }
}
