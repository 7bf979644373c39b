package com.banhang.shop.payments.domain.model;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Version;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.UUID;

/**
 * One attempt to pay an order: created PENDING before the gateway is called, then CAPTURED,
 * DECLINED or ABANDONED exactly once.
 *
 * <p>{@code activeOrderId} equals {@code orderId} while the attempt holds the order (pending or
 * captured) and is null otherwise; a unique index on it lets the database refuse a second attempt
 * on the same order, so two keys can never charge one order twice. The attempt remembers the claim
 * that started it (key and fencing attempt) so that reconciliation can complete that claim.
 */
@Entity
@Table(name = "payment")
public class Payment {

  @Id
  @Column(name = "id", length = 36)
  private String id;

  @Column(name = "tenant_id", nullable = false, length = 100)
  private String tenantId;

  @Column(name = "order_id", nullable = false, length = 36)
  private String orderId;

  @Column(name = "active_order_id", length = 36)
  private String activeOrderId;

  @Column(name = "amount", nullable = false)
  private long amount;

  @Column(name = "currency", nullable = false, length = 3)
  private String currency;

  @Column(name = "payment_method", nullable = false, length = 100)
  private String paymentMethod;

  @Enumerated(EnumType.STRING)
  @Column(name = "status", nullable = false, length = 16)
  private Status status;

  @Column(name = "gateway_key", nullable = false, length = 100)
  private String gatewayKey;

  @Column(name = "gateway_charge_id", length = 100)
  private String gatewayChargeId;

  @Column(name = "idempotency_key", nullable = false, length = 255)
  private String idempotencyKey;

  @Column(name = "idempotency_attempt", nullable = false)
  private int idempotencyAttempt;

  @Column(name = "created_at", nullable = false)
  private OffsetDateTime createdAt;

  @Column(name = "updated_at", nullable = false)
  private OffsetDateTime updatedAt;

  /** When the late-charge sweep last asked the gateway about this abandoned attempt. */
  @Column(name = "late_checked_at")
  private OffsetDateTime lateCheckedAt;

  /** What the late-charge sweep found for this abandoned attempt, once it found something. */
  @Enumerated(EnumType.STRING)
  @Column(name = "late_charge", length = 16)
  private LateCharge lateCharge;

  @Column(name = "late_charge_id", length = 100)
  private String lateChargeId;

  @Column(name = "late_charge_detail", length = 1000)
  private String lateChargeDetail;

  // An operator's mark on a flagged late charge (V16). Read only here: only the one conditional
  // UPDATE of LateChargeMarks writes them, so that two operators marking at once, on any node,
  // mark once; an entity written back by JPA must never carry them.
  @Column(name = "handled_at", insertable = false, updatable = false)
  private OffsetDateTime handledAt;

  @Column(name = "handled_by", length = 100, insertable = false, updatable = false)
  private String handledBy;

  @Enumerated(EnumType.STRING)
  @Column(name = "handling", length = 16, insertable = false, updatable = false)
  private LateChargeHandling handling;

  @Column(name = "handled_reason", length = 1000, insertable = false, updatable = false)
  private String handledReason;

  @Version
  @Column(name = "version", nullable = false)
  private int version;

  /** Where a payment stands. */
  public enum Status {
    /** Committed before the gateway call; the gateway may or may not have charged yet. */
    PENDING,
    /** The gateway charged the card. */
    CAPTURED,
    /** The gateway declined the card: final for this attempt. */
    DECLINED,
    /**
     * Certainly not charged (the gateway refused before charging, or has no charge for the key).
     */
    ABANDONED;

    /**
     * Whether this attempt still holds the order: only one may, so an order is never paid twice.
     */
    public boolean holdsOrder() {
      return this == PENDING || this == CAPTURED;
    }
  }

  protected Payment() {}

  public Payment(
      String tenantId,
      String orderId,
      long amount,
      String currency,
      String paymentMethod,
      String gatewayKey,
      String idempotencyKey,
      int idempotencyAttempt) {
    this.id = UUID.randomUUID().toString();
    this.tenantId = tenantId;
    this.orderId = orderId;
    this.activeOrderId = orderId;
    this.amount = amount;
    this.currency = currency;
    this.paymentMethod = paymentMethod;
    this.status = Status.PENDING;
    this.gatewayKey = gatewayKey;
    this.idempotencyKey = idempotencyKey;
    this.idempotencyAttempt = idempotencyAttempt;
    this.createdAt = now();
    this.updatedAt = createdAt;
  }

  /** The gateway charged the card. */
  public void capture(String chargeId) {
    settle(Status.CAPTURED);
    this.gatewayChargeId = chargeId;
  }

  /** The gateway declined the card; the order may be paid by another attempt. */
  public void decline(String chargeId) {
    settle(Status.DECLINED);
    this.gatewayChargeId = chargeId;
  }

  /** Certainly not charged; the order may be paid by another attempt. */
  public void abandon() {
    settle(Status.ABANDONED);
  }

  /**
   * The late-charge sweep found a charge of this attempt's amount, currency and order under its
   * gateway key after the attempt was abandoned (its request reached the processor late): the
   * attempt is captured after all and holds the order again. The only way out of ABANDONED.
   */
  public void captureLate(String chargeId) {
    if (status != Status.ABANDONED || lateCharge != null) {
      throw new IllegalStateException("payment " + id + " is " + status + ", not abandoned");
    }
    status = Status.CAPTURED;
    activeOrderId = orderId;
    gatewayChargeId = chargeId;
    lateCharge = LateCharge.RECORDED;
    lateChargeId = chargeId;
    lateChargeDetail = "charged after the attempt was abandoned; recorded by the late-charge sweep";
    lateCheckedAt = now();
    updatedAt = lateCheckedAt;
  }

  /**
   * The late-charge sweep found something under this abandoned attempt's gateway key that it does
   * not record: a double charge or a mismatch (for an operator), or a decline. The attempt stays
   * ABANDONED and is not asked about again.
   */
  public void flagLateCharge(LateCharge found, String chargeId, String detail) {
    if (status != Status.ABANDONED || found == LateCharge.RECORDED) {
      throw new IllegalStateException("payment " + id + " is " + status + ", not abandoned");
    }
    lateCharge = found;
    lateChargeId = chargeId;
    lateChargeDetail =
        detail == null || detail.length() <= 1000 ? detail : detail.substring(0, 1000);
    lateCheckedAt = now();
    updatedAt = lateCheckedAt;
  }

  /** The late-charge sweep asked the gateway and found nothing (yet). */
  public void lateChecked() {
    lateCheckedAt = now();
  }

  private void settle(Status settled) {
    if (status != Status.PENDING) {
      throw new IllegalStateException("payment " + id + " is already " + status);
    }
    status = settled;
    activeOrderId = settled.holdsOrder() ? orderId : null;
    updatedAt = now();
  }

  private static OffsetDateTime now() {
    return OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MILLIS);
  }

  public String id() {
    return id;
  }

  public String tenantId() {
    return tenantId;
  }

  public String orderId() {
    return orderId;
  }

  public long amount() {
    return amount;
  }

  public String currency() {
    return currency;
  }

  public String paymentMethod() {
    return paymentMethod;
  }

  public Status status() {
    return status;
  }

  public String gatewayKey() {
    return gatewayKey;
  }

  public String gatewayChargeId() {
    return gatewayChargeId;
  }

  public String idempotencyKey() {
    return idempotencyKey;
  }

  public int idempotencyAttempt() {
    return idempotencyAttempt;
  }

  public OffsetDateTime createdAt() {
    return createdAt;
  }

  public OffsetDateTime lateCheckedAt() {
    return lateCheckedAt;
  }

  /** What the late-charge sweep found, or null while it found nothing. */
  public LateCharge lateCharge() {
    return lateCharge;
  }

  public String lateChargeId() {
    return lateChargeId;
  }

  public String lateChargeDetail() {
    return lateChargeDetail;
  }

  /** When an operator marked the flagged late charge handled, or null while nobody has. */
  public OffsetDateTime handledAt() {
    return handledAt;
  }

  public String handledBy() {
    return handledBy;
  }

  /** How the operator dealt with the flagged late charge, or null while nobody has. */
  public LateChargeHandling handling() {
    return handling;
  }

  public String handledReason() {
    return handledReason;
  }
}
