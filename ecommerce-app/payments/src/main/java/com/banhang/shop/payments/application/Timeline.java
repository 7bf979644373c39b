package com.banhang.shop.payments.application;

import com.banhang.shop.payments.api.TimelineEntry.Kind;
import com.banhang.shop.payments.domain.model.Payment;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Writes the payment timeline (docs/payments.md, "The payment timeline"). The timeline explains a
 * payment to an operator; it never decides anything, so a write that fails must never turn the
 * answer of a payment, a reconciliation or a sweep into an error. Two ways of writing:
 *
 * <ul>
 *   <li>{@link #inTransaction}: joins the running transaction, so the entry commits with the
 *       business rows it explains, or not at all. A failing insert is logged and not thrown; on
 *       PostgreSQL a failed statement still dooms the transaction, which then fails as any other
 *       write of the same database would.
 *   <li>{@link #alone}: in a transaction of its own, for what happens outside a business
 *       transaction (a failed try, an unknown outcome, a check that changed nothing); any failure,
 *       including the commit's, is logged and swallowed.
 * </ul>
 */
@ApplicationScoped
public class Timeline {

  /** The customer's own requests (retries of the key). */
  public static final String CUSTOMER = "customer";

  /** The shop serving a customer's request. */
  public static final String SHOP = "shop";

  /** Reconciliation, scheduled or run by an operator. */
  public static final String RECONCILIATION = "reconciliation";

  /** The late-charge sweep. */
  public static final String LATE_CHARGE_SWEEP = "late-charge-sweep";

  /** The processing of an event the processor sent by webhook. */
  public static final String GATEWAY_WEBHOOK = "gateway-webhook";

  /**
   * An operator's resolution: the console's audit names the operator and is merged into the
   * timeline by the console.
   */
  public static final String OPERATOR = "operator";

  /** The detail column's length (V13). */
  static final int DETAIL_LENGTH = 1000;

  private static final Logger LOG = Logger.getLogger(Timeline.class.getName());

  @Inject PaymentTimeline store;
  @Inject OneTransaction transaction;

  /** An entry of {@code payment}, now, in the running transaction. */
  public void inTransaction(Payment payment, Kind kind, String actor, String detail) {
    write(
        entry(
            payment.tenantId(),
            payment.idempotencyKey(),
            payment.id(),
            now(),
            kind,
            actor,
            detail));
  }

  /** An entry of {@code payment} at {@code at}, in a transaction of its own. */
  public void alone(Payment payment, Kind kind, String actor, String detail, Instant at) {
    alone(payment.tenantId(), payment.idempotencyKey(), payment.id(), kind, actor, detail, at);
  }

  /** An entry of {@code payment}, now, in a transaction of its own. */
  public void alone(Payment payment, Kind kind, String actor, String detail) {
    alone(payment, kind, actor, detail, now());
  }

  /**
   * An entry of a key, of one of its attempts ({@code paymentId}) or of none (null), in a
   * transaction of its own.
   */
  public void alone(
      String tenantId,
      String idempotencyKey,
      String paymentId,
      Kind kind,
      String actor,
      String detail,
      Instant at) {
    PaymentTimeline.Entry entry =
        entry(tenantId, idempotencyKey, paymentId, at == null ? now() : at, kind, actor, detail);
    try {
      transaction.run(
          () -> {
            store.append(entry);
            return null;
          });
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "could not write a payment timeline entry " + kind + "; ignored", e);
    }
  }

  private void write(PaymentTimeline.Entry entry) {
    try {
      store.append(entry);
    } catch (RuntimeException e) {
      LOG.log(
          Level.WARNING,
          "could not write a payment timeline entry " + entry.kind() + "; ignored",
          e);
    }
  }

  private static PaymentTimeline.Entry entry(
      String tenantId,
      String idempotencyKey,
      String paymentId,
      Instant at,
      Kind kind,
      String actor,
      String detail) {
    return new PaymentTimeline.Entry(
        tenantId,
        idempotencyKey,
        paymentId,
        at.truncatedTo(ChronoUnit.MILLIS),
        kind,
        detail == null ? null : limit(detail, DETAIL_LENGTH),
        actor);
  }

  /** SQL Server keeps milliseconds (datetimeoffset(3)); every database is given the same. */
  private static Instant now() {
    return Instant.now().truncatedTo(ChronoUnit.MILLIS);
  }

  static String limit(String text, int max) {
    return text.length() <= max ? text : text.substring(0, max - 1) + "…";
  }
}
