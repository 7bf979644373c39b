package com.banhang.shop.payments.application;

import com.banhang.shop.payments.api.PaymentRecord;
import com.banhang.shop.payments.api.PaymentRecords;
import com.banhang.shop.payments.api.TimelineEntry;
import com.banhang.shop.payments.application.PaymentSearch.Column;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@link PaymentRecords}: the operator console's payment search, page and timeline. Every lookup is
 * one index seek per column ({@link PaymentSearch}); the search asks each column the term can be,
 * exactly, and the tenants starting with it, and merges the answers newest first.
 */
@ApplicationScoped
public class DefaultPaymentRecords implements PaymentRecords {

  /**
   * The longest value of each exact column (V3, V7): a longer term cannot be one, and is not sent.
   */
  static final Map<Column, Integer> LENGTHS =
      Map.of(
          Column.PAYMENT_ID, 36,
          Column.ORDER_ID, 36,
          Column.GATEWAY_KEY, 100,
          Column.GATEWAY_CHARGE_ID, 100,
          Column.LATE_CHARGE_ID, 100,
          Column.IDEMPOTENCY_KEY, 255);

  /** payment.tenant_id's length. */
  static final int TENANT_LENGTH = 100;

  /**
   * The most entries a timeline shows: the key's newest ones. Customer retries are coalesced
   * (CustomerRetries), so a key rarely has more than a few dozen.
   */
  static final int TIMELINE_ENTRIES = 500;

  private static final Comparator<PaymentRecord> NEWEST_FIRST =
      Comparator.comparing(PaymentRecord::createdAt)
          .thenComparing(PaymentRecord::paymentId)
          .reversed();

  @Inject PaymentSearch search;
  @Inject PaymentTimeline timeline;

  /**
   * The term is trimmed (an operator pastes ids with white space around them; no id, key or tenant
   * has any at either end) and compared exactly with each column it may be, in the order of {@link
   * Column}; then with the tenants' beginnings. A blank term, or a limit under one, finds nothing.
   */
  @Override
  public List<PaymentRecord> search(String term, int limit) {
    if (term == null || term.isBlank() || limit < 1) {
      return List.of();
    }
    String value = term.strip();
    Map<String, PaymentRecord> found = new LinkedHashMap<>();
    for (Column column : Column.values()) {
      if (value.length() <= LENGTHS.get(column)) {
        search.equal(column, value, limit).forEach(p -> found.putIfAbsent(p.paymentId(), p));
      }
    }
    if (value.length() <= TENANT_LENGTH) {
      search.tenantStartingWith(value, limit).forEach(p -> found.putIfAbsent(p.paymentId(), p));
    }
    return newestFirst(found.values(), limit);
  }

  @Override
  public List<PaymentRecord> ofOrders(Collection<String> orderIds, int limit) {
    if (orderIds == null || orderIds.isEmpty() || limit < 1) {
      return List.of();
    }
    return newestFirst(search.ofOrders(orderIds, limit), limit);
  }

  @Override
  public Optional<PaymentRecord> find(String paymentId) {
    if (paymentId == null || paymentId.isBlank()) {
      return Optional.empty();
    }
    return search.equal(Column.PAYMENT_ID, paymentId.strip(), 1).stream().findFirst();
  }

  /**
   * The entries of the payment's key, all its attempts, oldest first by when they happened (a
   * failed try is written after the call, with its own time), in the order written among equal
   * times. Empty for an unknown payment, and for one whose key has no entries (payments started
   * before V13).
   */
  @Override
  public List<TimelineEntry> timeline(String paymentId) {
    Optional<PaymentRecord> payment = find(paymentId);
    if (payment.isEmpty()) {
      return List.of();
    }
    List<TimelineEntry> entries =
        new ArrayList<>(
            timeline.ofKey(
                payment.get().tenantId(), payment.get().idempotencyKey(), TIMELINE_ENTRIES));
    // List.sort is stable: entries of the same instant keep the order they were written in.
    entries.sort(Comparator.comparing(TimelineEntry::at));
    return List.copyOf(entries);
  }

  private static List<PaymentRecord> newestFirst(Collection<PaymentRecord> records, int limit) {
    return records.stream().sorted(NEWEST_FIRST).limit(limit).toList();
  }
}
