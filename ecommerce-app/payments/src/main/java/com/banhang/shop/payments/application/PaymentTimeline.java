package com.banhang.shop.payments.application;

import com.banhang.shop.payments.api.TimelineEntry;
import java.time.Instant;
import java.util.List;

/**
 * The store of the payment timeline (table {@code payment_timeline}, V13): entries are appended and
 * read, never changed or removed. Implemented in infrastructure.
 */
public interface PaymentTimeline {

  /**
   * One entry to append.
   *
   * @param paymentId the attempt it belongs to, or null for an entry of the key alone
   */
  record Entry(
      String tenantId,
      String idempotencyKey,
      String paymentId,
      Instant at,
      TimelineEntry.Kind kind,
      String detail,
      String actor) {}

  /**
   * Appends one entry in the caller's transaction, if one is running (otherwise on its own).
   *
   * @throws RuntimeException when it cannot be written
   */
  void append(Entry entry);

  /**
   * The last {@code limit} entries written for a key (all its attempts), in the order they were
   * written.
   */
  List<TimelineEntry> ofKey(String tenantId, String idempotencyKey, int limit);
}
