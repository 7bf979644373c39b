package com.banhang.shop.payments.api;

import com.banhang.idempotency.ClaimLostException;
import com.banhang.idempotency.ClaimedKey;
import com.banhang.idempotency.IdempotencyRecords;
import com.banhang.idempotency.persistence.IdempotencyRecord;
import com.banhang.shop.payments.api.ReconciliationReport.Outcome;
import com.banhang.shop.payments.api.rest.PaymentResponses;
import com.banhang.shop.payments.application.GatewayCharge;
import com.banhang.shop.payments.application.GatewayUnavailableException;
import com.banhang.shop.payments.application.PaymentGateway;
import com.banhang.shop.payments.application.PaymentService;
import com.banhang.shop.payments.domain.model.Payment;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.PersistenceException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Resolves payments.charge keys left in processing (CONTRACT s7): the request crashed, or the
 * gateway's answer was lost. For each key older than the minimum age, the gateway is asked for the
 * charge under the payment's gateway key, never charged again under a new one:
 *
 * <ul>
 *   <li>charged (or declined): the payment is recorded and the key completed with the answer the
 *       client would have had, in one transaction;
 *   <li>no charge, or no attempt was ever committed (nothing was sent): the key is released so the
 *       client's next retry runs as new; it reuses the same gateway key, so even a charge that
 *       lands late is found instead of repeated;
 *   <li>gateway unreachable: left for the next run.
 * </ul>
 *
 * Safe on several nodes at once: every write is fenced by the claim's attempt and the payment row
 * is locked while it is settled, so a second reconciler finds it settled.
 */
@ApplicationScoped
public class Reconciliation {

  static final String OPERATION = "payments.charge";
  private static final Logger LOG = Logger.getLogger(Reconciliation.class.getName());

  @Inject IdempotencyRecords records;
  @Inject PaymentService payments;
  @Inject PaymentGateway gateway;
  @Inject ChargeCompletion completion;

  @Inject
  @ConfigProperty(name = "payments.reconciliation.batch-size", defaultValue = "100")
  int batchSize;

  /**
   * The gateway forgets a key after this long (Stripe: at least 24 h); a "no charge" answer for an
   * older key proves nothing, so such keys are left to an operator instead of being released.
   */
  @Inject
  @ConfigProperty(name = "payments.gateway.key-retention", defaultValue = "PT24H")
  Duration gatewayKeyRetention;

  /**
   * Keys younger than this may still have their request running: left alone. Seed 001's two
   * minutes, far inside the gateway's key retention.
   */
  @Inject
  @ConfigProperty(name = "payments.reconciliation.min-age", defaultValue = "PT2M")
  Duration defaultMinimumAge;

  /** One run over the keys older than the configured minimum age (what the schedule runs). */
  public ReconciliationReport reconcile() {
    return reconcile(defaultMinimumAge);
  }

  public ReconciliationReport reconcile(Duration minimumAge) {
    List<Outcome> outcomes = new ArrayList<>();
    Instant now = Instant.now();
    for (IdempotencyRecord record : records.findProcessing(OPERATION, minimumAge, batchSize)) {
      outcomes.add(stillLeased(record, now) ? Outcome.STILL_RUNNING : reconcileSafely(record));
    }
    ReconciliationReport report = ReconciliationReport.of(outcomes);
    if (report.examined() > 0) {
      LOG.info(() -> "reconciled payments.charge keys: " + report);
    }
    return report;
  }

  /**
   * A request may still be working on a key whose lease has not run out, between its claim and the
   * commit of its payment attempt: releasing that key would orphan the attempt. A key whose outcome
   * was marked unknown has no request working on it any more.
   */
  private static boolean stillLeased(IdempotencyRecord record, Instant now) {
    return !record.outcomeUnknown() && record.lockedUntil().isAfter(now);
  }

  private Outcome reconcileSafely(IdempotencyRecord record) {
    try {
      return reconcile(record.claimedKey(), record.createdAt());
    } catch (ClaimLostException | PersistenceException e) {
      return Outcome.SETTLED_ELSEWHERE;
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "could not reconcile a payments.charge key", e);
      return Outcome.FAILED;
    }
  }

  private Outcome reconcile(ClaimedKey claim, Instant claimedAt) {
    Optional<Payment> attempt = payments.attemptOf(claim);
    if (attempt.isEmpty()) {
      // The attempt commits before the gateway call: without one, nothing was ever sent.
      return release(claim);
    }
    Payment payment = attempt.get();
    return switch (payment.status()) {
      case CAPTURED, DECLINED -> completeSettled(claim, payment);
      case ABANDONED -> release(claim);
      case PENDING -> askGateway(claim, payment, claimedAt);
    };
  }

  private Outcome askGateway(ClaimedKey claim, Payment payment, Instant claimedAt) {
    Optional<GatewayCharge> charge;
    try {
      charge = gateway.findByKey(payment.gatewayKey());
    } catch (GatewayUnavailableException e) {
      return Outcome.GATEWAY_UNREACHABLE;
    }
    if (charge.isEmpty()) {
      if (claimedAt.plus(gatewayKeyRetention).isBefore(Instant.now())) {
        return Outcome.NEEDS_OPERATOR;
      }
      payments.abandon(payment.id());
      return release(claim);
    }
    Payment settled = completion.completeClaim(claim, payment.id(), charge.get());
    return outcomeOf(settled);
  }

  /** The payment was recorded but its key was not completed (settled by another path). */
  private Outcome completeSettled(ClaimedKey claim, Payment payment) {
    records.complete(claim, PaymentResponses.forSettled(payment));
    return outcomeOf(payment);
  }

  private Outcome release(ClaimedKey claim) {
    return records.release(claim) ? Outcome.RELEASED : Outcome.SETTLED_ELSEWHERE;
  }

  private static Outcome outcomeOf(Payment payment) {
    return switch (payment.status()) {
      case CAPTURED -> Outcome.CAPTURED;
      case DECLINED -> Outcome.DECLINED;
      default -> Outcome.SETTLED_ELSEWHERE;
    };
  }
}
