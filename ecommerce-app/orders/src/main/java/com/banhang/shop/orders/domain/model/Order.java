package com.banhang.shop.orders.domain.model;

import jakarta.persistence.CollectionTable;
import jakarta.persistence.Column;
import jakarta.persistence.ElementCollection;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.OrderColumn;
import jakarta.persistence.Table;
import jakarta.persistence.Version;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * A customer's order. It belongs to one tenant (the authenticated customer), its total is fixed
 * when it is placed, in the currency's minor unit, and it is paid at most once.
 *
 * <p>{@code merchantOrderId} is the shop's long-lived business identifier: unique per tenant by a
 * database constraint that outlives any idempotency key.
 */
@Entity
@Table(name = "shop_order")
public class Order {

  @Id
  @Column(name = "id", length = 36)
  private String id;

  @Column(name = "tenant_id", nullable = false, length = 100)
  private String tenantId;

  @Column(name = "merchant_order_id", length = 64)
  private String merchantOrderId;

  @Column(name = "currency", nullable = false, length = 3)
  private String currency;

  @Enumerated(EnumType.STRING)
  @Column(name = "status", nullable = false, length = 32)
  private Status status;

  @Column(name = "total_amount", nullable = false)
  private long total;

  @Column(name = "created_at", nullable = false)
  private OffsetDateTime createdAt;

  @Version
  @Column(name = "version", nullable = false)
  private int version;

  @ElementCollection
  @CollectionTable(name = "order_line", joinColumns = @JoinColumn(name = "order_id"))
  @OrderColumn(name = "line_no")
  private List<OrderLine> lines = new ArrayList<>();

  /** An order waits for its payment, then is paid; nothing else happens to it yet. */
  public enum Status {
    PENDING_PAYMENT,
    PAID
  }

  protected Order() {}

  public Order(String tenantId, String merchantOrderId, String currency, List<OrderLine> lines) {
    if (lines.isEmpty()) {
      throw new IllegalArgumentException("an order has at least one line");
    }
    this.id = UUID.randomUUID().toString();
    this.tenantId = tenantId;
    this.merchantOrderId = merchantOrderId;
    this.currency = currency;
    this.status = Status.PENDING_PAYMENT;
    this.lines = new ArrayList<>(lines);
    this.total = lines.stream().mapToLong(OrderLine::subtotal).reduce(0L, Math::addExact);
    // Millisecond precision: every database keeps it, so a read returns what was written.
    this.createdAt = OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MILLIS);
  }

  /** Records the payment; an order is paid once. */
  public void markPaid() {
    if (status == Status.PAID) {
      throw new OrderAlreadyPaidException(id);
    }
    status = Status.PAID;
  }

  public String id() {
    return id;
  }

  public String tenantId() {
    return tenantId;
  }

  public String merchantOrderId() {
    return merchantOrderId;
  }

  public String currency() {
    return currency;
  }

  public Status status() {
    return status;
  }

  public long total() {
    return total;
  }

  public OffsetDateTime createdAt() {
    return createdAt;
  }

  public List<OrderLine> lines() {
    return List.copyOf(lines);
  }
}
