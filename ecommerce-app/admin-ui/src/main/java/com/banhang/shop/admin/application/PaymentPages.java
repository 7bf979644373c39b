package com.banhang.shop.admin.application;

import com.banhang.shop.orders.api.OrderLookup;
import com.banhang.shop.payments.api.GatewayEvents;
import com.banhang.shop.payments.api.PaymentRecord;
import com.banhang.shop.payments.api.PaymentRecords;
import com.banhang.shop.payments.api.PaymentResolution;
import com.banhang.shop.payments.api.TimelineEntry;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The operator's way to a payment (docs/operations.md, "At 3 a.m."): one search over every id a
 * customer or a colleague may read out, and one page per payment with its whole story. Read-only.
 */
@ApplicationScoped
public class PaymentPages {

  /** At most this many payments answer one search. */
  public static final int SEARCH_LIMIT = 50;

  /** At most this many operator actions of one key are merged into a timeline. */
  static final int AUDIT_ENTRIES_PER_KEY = 200;

  /** Timeline kinds the console adds to the payments context's own. */
  public static final String OPERATOR_KIND_PREFIX = "OPERATOR_";

  @Inject PaymentRecords payments;
  @Inject OrderLookup orders;
  @Inject StuckOperations stuck;
  @Inject AuditLog audit;
  @Inject GatewayEvents gatewayEvents;

  /**
   * The payments a search term names, newest first: a payment id, order id, merchant order id,
   * gateway key, gateway charge id or idempotency key, exactly; or a customer id starting with it.
   */
  public List<PaymentRecord> search(String term) {
    if (term == null || term.isBlank()) {
      return List.of();
    }
    String exact = term.trim();
    Map<String, PaymentRecord> found = new LinkedHashMap<>();
    payments.search(exact, SEARCH_LIMIT).forEach(p -> found.putIfAbsent(p.paymentId(), p));
    List<String> byMerchantId = orders.idsByMerchantOrderId(exact, SEARCH_LIMIT);
    if (!byMerchantId.isEmpty()) {
      payments
          .ofOrders(byMerchantId, SEARCH_LIMIT)
          .forEach(p -> found.putIfAbsent(p.paymentId(), p));
    }
    return found.values().stream()
        .sorted(Comparator.comparing(PaymentRecord::createdAt).reversed())
        .limit(SEARCH_LIMIT)
        .toList();
  }

  /** The payments of one order, newest first: the order's own page. */
  public List<PaymentRecord> ofOrder(String orderId) {
    if (orderId == null || orderId.isBlank()) {
      return List.of();
    }
    return payments.ofOrders(List.of(orderId.trim()), SEARCH_LIMIT);
  }

  /** One payment with its key's state and its timeline; empty when there is no such payment. */
  public Optional<PaymentPage> page(String paymentId) {
    if (paymentId == null || paymentId.isBlank()) {
      return Optional.empty();
    }
    return payments.find(paymentId.trim()).map(this::page);
  }

  private PaymentPage page(PaymentRecord payment) {
    KeyRef ref =
        new KeyRef(payment.tenantId(), StuckOperations.PAYMENTS_CHARGE, payment.idempotencyKey());
    // Only this attempt's own claim is this payment's business: a later claim of the key started
    // another attempt, with a page of its own.
    Optional<StuckOperationDetail> key =
        stuck.detail(ref).filter(d -> d.operation().attempt() == payment.attempt());
    boolean resolvable =
        "PENDING".equals(payment.status())
            && key.map(
                    d ->
                        PaymentResolution.resolvable(
                            d.operation().lastCheck(), d.operation().leaseExpired()))
                .orElse(false);
    List<TimelineEntry> timeline = new ArrayList<>(payments.timeline(payment.paymentId()));
    for (AuditEntry entry : audit.ofKey(ref, AUDIT_ENTRIES_PER_KEY)) {
      timeline.add(fromAudit(entry));
    }
    timeline.sort(Comparator.comparing(TimelineEntry::at));
    return new PaymentPage(
        payment,
        key,
        List.copyOf(timeline),
        resolvable,
        List.copyOf(gatewayEvents.ofPayment(payment.paymentId())));
  }

  private static TimelineEntry fromAudit(AuditEntry entry) {
    StringBuilder detail = new StringBuilder(entry.result());
    if (entry.detail() != null && !entry.detail().isBlank()) {
      detail.append(": ").append(entry.detail());
    }
    if (entry.reason() != null && !entry.reason().isBlank()) {
      detail.append(" (reason: ").append(entry.reason()).append(')');
    }
    return new TimelineEntry(
        entry.occurredAt(),
        OPERATOR_KIND_PREFIX + entry.action(),
        detail.toString(),
        entry.operator(),
        null);
  }
}
