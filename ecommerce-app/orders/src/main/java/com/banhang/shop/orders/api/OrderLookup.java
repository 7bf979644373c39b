package com.banhang.shop.orders.api;

import java.util.List;

/** Read-only: orders as the operator console finds them. Implemented in the application layer. */
public interface OrderLookup {

  /**
   * The ids of the orders whose merchant order id is exactly {@code merchantOrderId}, of any tenant
   * (it is unique per tenant only), newest first; an index seek.
   */
  List<String> idsByMerchantOrderId(String merchantOrderId, int limit);
}
