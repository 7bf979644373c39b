package com.banhang.shop.payments.application;

import com.banhang.idempotency.ClaimLostException;
import com.banhang.idempotency.ClaimedKey;
import com.banhang.idempotency.IdempotencyKeys;
import com.banhang.idempotency.IdempotencyRecord;
import com.banhang.shop.payments.api.Reconciliation;
import com.banhang.shop.payments.api.ReconciliationChecked;
import com.banhang.shop.payments.api.ReconciliationReport;
import com.banhang.shop.payments.api.ReconciliationReport.Finding;
import com.banhang.shop.payments.api.TimelineEntry;
import com.banhang.shop.payments.domain.model.Payment;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.persistence.PersistenceException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Resolves payments.charge keys left in processing (docs/payments.md, "Reconciliation"): the
 * request crashed, or the gateway's answer was lost. For each key older than the minimum age, the
 * gateway is asked for the charge under the payment's gateway key, never charged again under a new
 * one:
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
 * <p>Every key examined that stays in processing (still running, gateway unreachable, failed, needs
 * an operator) gets its check recorded on its row ({@link IdempotencyKeys#recordCheck}), so the
 * operator console shows why it is stuck; every examined key fires {@link ReconciliationChecked}
 * for the metrics.
 *
 * <p><b>Keys parked for an operator are left out of runs.</b> A key marked {@code NEEDS_OPERATOR}
 * (older than the gateway's key retention and unknown to the gateway) would be examined again by
 * every run with the same result; since runs take the oldest keys first, enough of them would fill
 * every batch and starve the keys a run can still settle. So a run skips keys whose last check is
 * {@code NEEDS_OPERATOR}: they are settled only by an operator, either {@link #reconcileKey} (which
 * examines one key now, whatever its age or last check) or {@link DefaultPaymentResolution}.
 *
 * <p>Safe on several nodes at once: every write is fenced by the claim's attempt and the payment
 * row is locked while it is settled, so a second reconciler finds it settled.
 */
@ApplicationScoped
public class DefaultReconciliation implements Reconciliation {

  /** Last checks that keep a key out of runs: only an operator can settle it. */
  static final Set<String> OPERATOR_ONLY = Set.of(Finding.NEEDS_OPERATOR.name());

  /** Outcomes after which the key is still in processing: their check is recorded on the key. */
  private static final Set<Finding> LEAVE_PROCESSING =
      EnumSet.of(
          Finding.NEEDS_OPERATOR,
          Finding.GATEWAY_UNREACHABLE,
          Finding.FAILED,
          Finding.STILL_RUNNING);

  private static final Logger LOG = Logger.getLogger(DefaultReconciliation.class.getName());

  @Inject IdempotencyKeys keys;
  @Inject PaymentService payments;
  @Inject PaymentGateway gateway;
  @Inject PayOrder payOrder;
  @Inject Event<ReconciliationChecked> checks;
  @Inject Timeline timeline;

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
   * Keys younger than this may still have their request running: left alone. Two minutes, far
   * inside the gateway's key retention (docs/payments.md, "When it runs").
   */
  @Inject
  @ConfigProperty(name = "payments.reconciliation.min-age", defaultValue = "PT2M")
  Duration defaultMinimumAge;

  /**
   * What became of one key, and why, in words for the operator console; the attempt it concerns
   * (null when the key's claim committed none), and what the gateway said when it was asked (null
   * when it was not), for the payment's timeline.
   */
  private record Check(Finding finding, String detail, Payment payment, String gatewaySaid) {

    Check(Finding finding, String detail) {
      this(finding, detail, null, null);
    }

    Check about(Payment attempt) {
      return new Check(finding, detail, payment == null ? attempt : payment, gatewaySaid);
    }

    Check saying(String said) {
      return new Check(finding, detail, payment, said);
    }
  }

  /** One run over the keys older than the configured minimum age (what the schedule runs). */
  @Override
  public ReconciliationReport reconcileDueKeys() {
    return reconcileKeysOlderThan(defaultMinimumAge);
  }

  /** One run over the oldest keys claimed more than {@code minimumAge} ago, except parked ones. */
  @Override
  public ReconciliationReport reconcileKeysOlderThan(Duration minimumAge) {
    List<Finding> findings = new ArrayList<>();
    if (batchSize < 1) {
      // A batch of no keys reads nothing: asked for, it would be FETCH NEXT 0 ROWS, which SQL
      // Server refuses.
      return ReconciliationReport.of(findings);
    }
    for (IdempotencyRecord record :
        keys.findProcessing(PayOrder.OPERATION, minimumAge, OPERATOR_ONLY, batchSize)) {
      findings.add(examineIsolated(record));
    }
    ReconciliationReport report = ReconciliationReport.of(findings);
    if (report.examined() > 0) {
      LOG.info(() -> "reconciled payments.charge keys: " + report);
    }
    return report;
  }

  /**
   * Examines one payments.charge key now, whatever its age and its last check (an operator's
   * "reconcile this key"), by the same rules as a run: a key whose lease still runs is left alone
   * ({@code STILL_RUNNING}), and so on. Its check is recorded and the event fired as in a run.
   *
   * @return {@link Finding#NOT_PROCESSING} when there is no such key in processing; then nothing
   *     was changed, recorded or fired
   */
  @Override
  public Finding reconcileKey(String tenant, String key) {
    Optional<IdempotencyRecord> record = keys.find(tenant, PayOrder.OPERATION, key);
    if (record.isEmpty() || record.get().status() != IdempotencyRecord.Status.PROCESSING) {
      return Finding.NOT_PROCESSING;
    }
    Finding finding = examine(record.get());
    LOG.info(() -> "reconciled one payments.charge key on request: " + finding);
    return finding;
  }

  /**
   * One key of a run, whatever happens to it: a row that cannot be read or examined (a missing
   * column, a failure outside the usual paths) is logged, recorded as {@code FAILED} if it can be,
   * and the run goes on with the next key; it never stops the run for the others.
   */
  private Finding examineIsolated(IdempotencyRecord record) {
    try {
      return examine(record);
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "could not examine a payments.charge key; the run goes on", e);
      try {
        Check failed =
            new Check(Finding.FAILED, "unexpected error, tried again next run: " + describe(e));
        recordCheck(record.claimedKey(), failed);
        written(record.claimedKey(), failed);
      } catch (RuntimeException unreadable) {
        LOG.log(Level.WARNING, "could not record the check of an unreadable key", unreadable);
      }
      fire(Finding.FAILED);
      return Finding.FAILED;
    }
  }

  private static String describe(RuntimeException e) {
    return e.getClass().getSimpleName() + ": " + e.getMessage();
  }

  private Finding examine(IdempotencyRecord record) {
    Check check = stillLeased(record) ? stillRunning(record) : settleSafely(record);
    if (LEAVE_PROCESSING.contains(check.finding())) {
      recordCheck(record.claimedKey(), check);
    }
    written(record.claimedKey(), check);
    fire(check.finding());
    return check.finding();
  }

  /**
   * A request may still be working on a key whose lease has not run out, between its claim and the
   * commit of its payment: releasing that key would orphan the attempt. A key whose outcome was
   * marked unknown has no request working on it any more. The lease is judged on the database's
   * clock at the read, never this server's (docs/payments.md, "Several nodes").
   */
  private static boolean stillLeased(IdempotencyRecord record) {
    return !record.outcomeUnknown() && !record.leaseExpired();
  }

  private static Check stillRunning(IdempotencyRecord record) {
    return new Check(
        Finding.STILL_RUNNING,
        "its request may still be running: its lease lasts until "
            + record.lockedUntil()
            + "; left alone until then");
  }

  private Check settleSafely(IdempotencyRecord record) {
    try {
      return settle(record.claimedKey(), record.age());
    } catch (ClaimLostException | PersistenceException e) {
      return new Check(Finding.SETTLED_ELSEWHERE, "settled by another worker or by its request");
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "could not reconcile a payments.charge key", e);
      return new Check(Finding.FAILED, "unexpected error, tried again next run: " + describe(e));
    }
  }

  private Check settle(ClaimedKey claim, Duration claimedAgo) {
    Optional<Payment> attempt = payments.paymentOf(claim);
    if (attempt.isEmpty()) {
      // The attempt commits before the gateway call: without one, nothing was ever sent.
      return release(claim);
    }
    Payment payment = attempt.get();
    Check check =
        switch (payment.status()) {
          case CAPTURED, DECLINED -> completeWithRecordedPayment(claim, payment);
          case ABANDONED -> release(claim);
          case PENDING -> askGateway(claim, payment, claimedAgo);
        };
    return check.about(payment);
  }

  /** {@code claimedAgo}: the key's age on the database's clock. */
  private Check askGateway(ClaimedKey claim, Payment payment, Duration claimedAgo) {
    Optional<PaymentGateway.ChargeDetails> charge;
    try {
      charge = gateway.findByKey(payment.gatewayKey());
    } catch (GatewayUnavailableException e) {
      return new Check(
              Finding.GATEWAY_UNREACHABLE,
              "the gateway could not be asked for the charge under gateway key "
                  + payment.gatewayKey()
                  + ": "
                  + e.getMessage())
          .saying("no answer: " + e.getMessage());
    }
    String said = said(payment, charge);
    return decide(claim, payment, claimedAgo, charge).saying(said);
  }

  /** What the gateway answered about the payment's gateway key, in words for the timeline. */
  private static String said(Payment payment, Optional<PaymentGateway.ChargeDetails> charge) {
    if (charge.isEmpty()) {
      return "no charge under gateway key " + payment.gatewayKey();
    }
    PaymentGateway.ChargeDetails found = charge.get();
    return (found.succeeded() ? "succeeded" : "declined")
        + " charge "
        + found.chargeId()
        + " of "
        + found.amount()
        + " "
        + found.currency()
        + " for order "
        + found.orderReference()
        + " under gateway key "
        + payment.gatewayKey();
  }

  private Check decide(
      ClaimedKey claim,
      Payment payment,
      Duration claimedAgo,
      Optional<PaymentGateway.ChargeDetails> charge) {
    if (charge.isEmpty()) {
      if (claimedAgo.compareTo(gatewayKeyRetention) > 0) {
        return new Check(
            Finding.NEEDS_OPERATOR,
            "the gateway has no charge under gateway key "
                + payment.gatewayKey()
                + ", but the key was claimed more than "
                + gatewayKeyRetention
                + " ago, longer than the gateway keeps keys: it may have forgotten a charge. Check"
                + " the processor for a charge of order "
                + payment.orderId()
                + " and resolve the key as charged or not charged");
      }
      payments.abandon(
          payment.id(),
          Timeline.RECONCILIATION,
          "the gateway has no charge under gateway key " + payment.gatewayKey());
      return release(claim);
    }
    List<String> differences = charge.get().differencesFrom(payment);
    if (!differences.isEmpty()) {
      // Not this payment's charge: recording it would capture the payment (and pay the order) for
      // a charge its request never made. Only an operator may decide; the key stays processing.
      return new Check(
          Finding.NEEDS_OPERATOR,
          "the gateway has charge "
              + charge.get().chargeId()
              + " under gateway key "
              + payment.gatewayKey()
              + ", but it is not this payment's: "
              + String.join("; ", differences)
              + ". It was not recorded; check the processor and resolve the key");
    }
    Payment settled = payOrder.completeClaim(claim, payment.id(), charge.get().charge());
    return settledCheck(settled);
  }

  /** The payment was recorded but its key was not completed (settled by another path). */
  private Check completeWithRecordedPayment(ClaimedKey claim, Payment payment) {
    payOrder.completeClaim(claim, payment);
    return settledCheck(payment);
  }

  private Check release(ClaimedKey claim) {
    return keys.release(claim)
        ? new Check(Finding.RELEASED, "nothing was charged: the key was released")
        : new Check(Finding.SETTLED_ELSEWHERE, "settled by another worker or by its request");
  }

  private static Check settledCheck(Payment payment) {
    return switch (payment.status()) {
      case CAPTURED -> new Check(Finding.CAPTURED, "charged: " + payment.gatewayChargeId());
      case DECLINED -> new Check(Finding.DECLINED, "declined: " + payment.gatewayChargeId());
      default ->
          new Check(Finding.SETTLED_ELSEWHERE, "settled by another worker or by its request");
    };
  }

  /**
   * Bookkeeping for the console only: a stale attempt (false) or a store that fails must not turn
   * the key's finding into something else, nor stop the run.
   */
  private void recordCheck(ClaimedKey claim, Check check) {
    try {
      keys.recordCheck(claim, check.finding().name(), check.detail());
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "could not record the check of a payments.charge key", e);
    }
  }

  /**
   * Every check goes to the key's timeline, append-only, in a transaction of its own (the key's
   * last_check keeps only the last): what was found and what the gateway said. A failure is logged
   * by {@link Timeline} and changes nothing here.
   */
  private void written(ClaimedKey claim, Check check) {
    String detail =
        check.finding()
            + ": "
            + check.detail()
            + (check.gatewaySaid() == null ? "" : ". The gateway said: " + check.gatewaySaid());
    timeline.alone(
        claim.tenant(),
        claim.key(),
        check.payment() == null ? null : check.payment().id(),
        TimelineEntry.Kind.RECONCILIATION_CHECK,
        Timeline.RECONCILIATION,
        detail,
        null);
  }

  private void fire(Finding finding) {
    try {
      checks.fire(new ReconciliationChecked(finding));
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "an observer of ReconciliationChecked failed", e);
    }
  }
}
