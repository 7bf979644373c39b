package com.banhang.shop.payments.application;

import com.banhang.shop.orders.api.PayableOrders;
import com.banhang.shop.payments.api.LateChargeChecked;
import com.banhang.shop.payments.api.LateChargeReport;
import com.banhang.shop.payments.api.LateChargeReport.Finding;
import com.banhang.shop.payments.api.LateChargeSweep;
import com.banhang.shop.payments.api.TimelineEntry.Kind;
import com.banhang.shop.payments.domain.model.LateCharge;
import com.banhang.shop.payments.domain.model.Payment;
import com.banhang.shop.payments.domain.model.PaymentInProgressException;
import com.banhang.shop.payments.domain.model.PaymentNotFoundException;
import com.banhang.shop.payments.domain.model.PaymentRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.persistence.PersistenceException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Finds charges that landed after their attempt was abandoned and its key released
 * (docs/payments.md, "Late charges"). Reconciliation releases a key when the gateway has no charge
 * under its gateway key; a request lost on its way may still reach the processor afterwards. If the
 * customer retries, the retry uses the same gateway key and gets that charge back; if they never
 * do, only this sweep finds it.
 *
 * <p>A run takes the oldest abandoned attempts created within the gateway's key retention ({@code
 * payments.gateway.key-retention}: after it, the gateway no longer finds a charge by key), for
 * which nothing was found yet, that were not asked about within {@code
 * payments.late-charges.recheck}, and whose gateway key no attempt has captured; and asks the
 * gateway by their gateway key, with no transaction open. What it finds is decided by {@link
 * #recordLateCharge}: a matching charge on an unpaid order is recorded (attempt captured, order
 * paid), one on an order paid meanwhile by another attempt is a double charge and flagged for an
 * operator, a mismatch is flagged for an operator.
 *
 * <p>Safe on several nodes: the attempt's row is locked while it is decided, a decided attempt is
 * never decided again, and the unique index on the active order refuses a capture while another
 * attempt holds the order. The key itself stays released: a later retry of it answers with the
 * recorded payment ({@link PayOrder}).
 */
@ApplicationScoped
public class DefaultLateChargeSweep implements LateChargeSweep {

  private static final Logger LOG = Logger.getLogger(DefaultLateChargeSweep.class.getName());

  @Inject PaymentRepository payments;
  @Inject PayableOrders orders;
  @Inject PaymentGateway gateway;
  @Inject OneTransaction transaction;
  @Inject Event<LateChargeChecked> checks;
  @Inject Timeline timeline;
  @Inject PaymentEvents events;

  @Inject
  @ConfigProperty(name = "payments.gateway.key-retention", defaultValue = "PT24H")
  Duration gatewayKeyRetention;

  /** An attempt the sweep asked about is asked again only after this long (scheduled runs). */
  @Inject
  @ConfigProperty(name = "payments.late-charges.recheck", defaultValue = "PT10M")
  Duration recheck;

  @Inject
  @ConfigProperty(name = "payments.late-charges.batch-size", defaultValue = "100")
  int batchSize;

  /** One scheduled run. */
  @Override
  public LateChargeReport sweep() {
    return sweep(recheck);
  }

  /**
   * One run over attempts not asked about within {@code recheck} ({@code PT0S}: every candidate, an
   * operator's run).
   */
  @Override
  public LateChargeReport sweep(Duration recheck) {
    Instant now = Instant.now();
    List<Finding> findings = new ArrayList<>();
    for (Payment payment :
        payments.lateChargeCandidates(
            now.minus(gatewayKeyRetention).atOffset(ZoneOffset.UTC),
            now.minus(recheck).atOffset(ZoneOffset.UTC),
            batchSize)) {
      Finding finding = examineIsolated(payment);
      findings.add(finding);
      fire(finding);
    }
    LateChargeReport report = LateChargeReport.of(findings);
    if (report.examined() > 0) {
      LOG.info(() -> "swept abandoned payments for late charges: " + report);
    }
    return report;
  }

  private Finding examineIsolated(Payment payment) {
    try {
      return examine(payment);
    } catch (RuntimeException e) {
      LOG.log(
          Level.WARNING,
          "could not sweep payment " + payment.id() + " for a late charge; tried next run",
          e);
      return Finding.FAILED;
    }
  }

  private Finding examine(Payment payment) {
    Optional<PaymentGateway.ChargeDetails> charge;
    try {
      charge = gateway.findByKey(payment.gatewayKey());
    } catch (GatewayUnavailableException e) {
      checkedAlone(
          payment,
          Finding.GATEWAY_UNREACHABLE,
          "the gateway could not be asked under gateway key "
              + payment.gatewayKey()
              + " ("
              + e.getMessage()
              + "); asked again next run");
      return Finding.GATEWAY_UNREACHABLE;
    }
    if (charge.isEmpty()) {
      lateChecked(payment.id());
      return Finding.NOT_FOUND;
    }
    Optional<LateCharge> found;
    try {
      found = recordLateCharge(payment.id(), charge.get());
    } catch (PaymentInProgressException | PersistenceException e) {
      // Another attempt holds the order (running, or captured since the candidates were read):
      // the next run decides, once that attempt is settled.
      checkedAlone(
          payment,
          Finding.ORDER_HELD,
          "the gateway has "
              + said(charge.get())
              + ", but another attempt holds order "
              + payment.orderId()
              + "; decided next run, once that attempt is settled");
      return Finding.ORDER_HELD;
    }
    if (found.isEmpty()) {
      checkedAlone(
          payment,
          Finding.SETTLED_ELSEWHERE,
          "the gateway has "
              + said(charge.get())
              + "; the attempt was settled meanwhile, or its gateway key captured by another"
              + " attempt");
      return Finding.SETTLED_ELSEWHERE;
    }
    LateCharge late = found.get();
    if (late.needsOperator()) {
      LOG.warning(
          () ->
              "late charge "
                  + charge.get().chargeId()
                  + " for payment "
                  + payment.id()
                  + " of order "
                  + payment.orderId()
                  + " needs an operator: "
                  + late);
    } else if (late == LateCharge.RECORDED) {
      LOG.info(
          () ->
              "recorded late charge "
                  + charge.get().chargeId()
                  + ": payment "
                  + payment.id()
                  + " captured, order "
                  + payment.orderId()
                  + " paid");
    }
    return Finding.valueOf(late.name());
  }

  /**
   * What the sweep does with a charge the gateway holds under the gateway key of an abandoned
   * attempt, in a transaction of its own, with the attempt's row locked (so that two nodes sweeping
   * at once decide it once):
   *
   * <ul>
   *   <li>another amount, currency or order: flagged {@code MISMATCH} for an operator;
   *   <li>declined: flagged {@code DECLINED} (nothing was charged);
   *   <li>the order was meanwhile paid by another attempt: flagged {@code DOUBLE_CHARGE} for an
   *       operator, never recorded;
   *   <li>otherwise the attempt is captured and the order paid ({@code RECORDED}); the unique index
   *       on the active order refuses it while another attempt holds the order ({@link
   *       com.banhang.shop.payments.domain.model.PaymentInProgressException}, nothing changes).
   * </ul>
   *
   * @return what was done, or empty when the attempt is no longer abandoned and unflagged, or its
   *     gateway key was captured by another attempt (the same charge, already recorded)
   */
  Optional<LateCharge> recordLateCharge(String paymentId, PaymentGateway.ChargeDetails charge) {
    return transaction.run(() -> decide(paymentId, charge, Timeline.LATE_CHARGE_SWEEP));
  }

  /**
   * The decision of {@link #recordLateCharge}, in the caller's transaction, written to the timeline
   * by {@code actor}: the sweep, or a charge event from the processor ({@link
   * ChargeEventSettlement}).
   */
  Optional<LateCharge> decide(String paymentId, PaymentGateway.ChargeDetails charge, String actor) {
    Payment payment =
        payments.lock(paymentId).orElseThrow(() -> new PaymentNotFoundException(paymentId));
    if (payment.status() != Payment.Status.ABANDONED || payment.lateCharge() != null) {
      return Optional.empty();
    }
    if (payments.findCapturedByGatewayKey(payment.gatewayKey()).isPresent()) {
      payment.lateChecked();
      return Optional.empty();
    }
    LateCharge found;
    List<String> differences = charge.differencesFrom(payment);
    if (!differences.isEmpty()) {
      found = LateCharge.MISMATCH;
      payment.flagLateCharge(
          found,
          charge.chargeId(),
          "the gateway has charge "
              + charge.chargeId()
              + " under this attempt's gateway key, but it is not this attempt's: "
              + String.join("; ", differences));
    } else if (!charge.succeeded()) {
      found = LateCharge.DECLINED;
      payment.flagLateCharge(found, charge.chargeId(), "declined late: nothing was charged");
    } else if (orders.find(payment.tenantId(), payment.orderId()).paid()) {
      found = LateCharge.DOUBLE_CHARGE;
      payment.flagLateCharge(
          found,
          charge.chargeId(),
          "charge "
              + charge.chargeId()
              + " landed after this attempt was abandoned, but order "
              + payment.orderId()
              + " was meanwhile paid by another attempt: the customer was charged twice;"
              + " refund one charge at the processor");
    } else {
      found = LateCharge.RECORDED;
      payment.captureLate(charge.chargeId());
      orders.markPaid(payment.tenantId(), payment.orderId());
    }
    payments.flush();
    timeline.inTransaction(
        payment,
        Kind.LATE_CHARGE_CHECK,
        actor,
        found
            + ": the gateway has "
            + said(charge)
            + (payment.lateChargeDetail() == null ? "" : ". " + payment.lateChargeDetail()));
    if (found == LateCharge.RECORDED) {
      timeline.inTransaction(
          payment,
          Kind.CAPTURED,
          actor,
          "recorded as captured late by charge "
              + charge.chargeId()
              + ": order "
              + payment.orderId()
              + " paid");
      events.settled(payment, actor);
    }
    return Optional.of(found);
  }

  /** The sweep asked about the attempt and the gateway had nothing (yet). */
  private void lateChecked(String paymentId) {
    transaction.run(
        () -> {
          payments
              .lock(paymentId)
              .ifPresent(
                  payment -> {
                    payment.lateChecked();
                    timeline.inTransaction(
                        payment,
                        Kind.LATE_CHARGE_CHECK,
                        Timeline.LATE_CHARGE_SWEEP,
                        Finding.NOT_FOUND
                            + ": the gateway has no charge under gateway key "
                            + payment.gatewayKey()
                            + " (yet)");
                  });
          return null;
        });
  }

  /** A finding that changed nothing, written to the timeline in a transaction of its own. */
  private void checkedAlone(Payment payment, Finding finding, String detail) {
    timeline.alone(
        payment, Kind.LATE_CHARGE_CHECK, Timeline.LATE_CHARGE_SWEEP, finding + ": " + detail);
  }

  /** A charge as the gateway described it, in words for the timeline. */
  private static String said(PaymentGateway.ChargeDetails charge) {
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

  private void fire(Finding finding) {
    try {
      checks.fire(new LateChargeChecked(finding));
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "an observer of LateChargeChecked failed", e);
    }
  }
}
