package com.banhang.shop.payments.application;

import com.banhang.shop.payments.api.PaymentRecord;
import java.util.Collection;
import java.util.List;

/**
 * Payments as operators look them up, across tenants, each lookup one index seek (V13): never a
 * scan of the payment table. Implemented in infrastructure.
 */
public interface PaymentSearch {

  /** The string columns an operator's term is compared with, exactly. */
  enum Column {
    PAYMENT_ID,
    ORDER_ID,
    GATEWAY_KEY,
    GATEWAY_CHARGE_ID,
    LATE_CHARGE_ID,
    IDEMPOTENCY_KEY
  }

  /**
   * Payments whose {@code column} is exactly {@code value}, newest first, at most {@code limit}.
   */
  List<PaymentRecord> equal(Column column, String value, int limit);

  /**
   * Payments whose tenant starts with {@code prefix}, newest first, at most {@code limit}: an index
   * range on the tenant, never a pattern that must read every row.
   */
  List<PaymentRecord> tenantStartingWith(String prefix, int limit);

  /** The payments of these orders, newest first, at most {@code limit}. */
  List<PaymentRecord> ofOrders(Collection<String> orderIds, int limit);
}
