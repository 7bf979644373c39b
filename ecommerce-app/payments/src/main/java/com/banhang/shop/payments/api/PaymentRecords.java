package com.banhang.shop.payments.api;

import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Read-only: payments as the operator console finds and shows them (docs/operations.md, "The
 * payment page"). Every lookup seeks an index; nothing here scans the payment table. Implemented in
 * the application layer.
 */
public interface PaymentRecords {

  /**
   * Payments an operator's search term names, newest first: exactly a payment id, an order id, a
   * gateway key, a gateway charge id (the payment's own or a late charge's) or an idempotency key;
   * or a customer (tenant) id starting with the term. A blank term finds nothing.
   */
  List<PaymentRecord> search(String term, int limit);

  /** The payments of these orders, newest first (what a merchant order id leads to). */
  List<PaymentRecord> ofOrders(Collection<String> orderIds, int limit);

  /** One payment by its id, whatever its tenant. */
  Optional<PaymentRecord> find(String paymentId);

  /**
   * Everything that happened to a payment and its key, oldest first: the attempt started, each try
   * at the gateway and its answer, an unknown outcome, every reconciliation check with what the
   * gateway said, the settlement, the late-charge sweep's findings, and the customer's retries and
   * what they were answered. Entries of the key's other attempts are included (they explain this
   * one). Operator actions are in the console's audit and merged by the console.
   */
  List<TimelineEntry> timeline(String paymentId);
}
