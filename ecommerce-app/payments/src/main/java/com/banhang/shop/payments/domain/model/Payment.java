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
  private PaymentStatus status;

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

  @Version
  @Column(name = "version", nullable = false)
  private int version;

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
    this.status = PaymentStatus.PENDING;
    this.gatewayKey = gatewayKey;
    this.idempotencyKey = idempotencyKey;
    this.idempotencyAttempt = idempotencyAttempt;
    this.createdAt = now();
    this.updatedAt = createdAt;
  }

  /** The gateway charged the card. */
  public void capture(String chargeId) {
    settle(PaymentStatus.CAPTURED);
    this.gatewayChargeId = chargeId;
  }

  /** The gateway declined the card; the order may be paid by another attempt. */
  public void decline(String chargeId) {
    settle(PaymentStatus.DECLINED);
    this.gatewayChargeId = chargeId;
  }

  /** Certainly not charged; the order may be paid by another attempt. */
  public void abandon() {
    settle(PaymentStatus.ABANDONED);
  }

  private void settle(PaymentStatus outcome) {
    if (status != PaymentStatus.PENDING) {
      throw new IllegalStateException("payment " + id + " is already " + status);
    }
    status = outcome;
    activeOrderId = outcome.holdsOrder() ? orderId : null;
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

  public PaymentStatus status() {
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
}
