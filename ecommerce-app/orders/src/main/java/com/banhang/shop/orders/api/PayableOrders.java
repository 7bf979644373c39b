package com.banhang.shop.orders.api;

/**
 * The orders context as the payments context sees it; payments uses nothing else of orders.
 * Implemented in the application layer.
 *
 * <p>Throws {@link com.banhang.shop.orders.domain.model.OrderNotFoundException} for an order of
 * another tenant, and {@link com.banhang.shop.orders.domain.model.OrderAlreadyPaidException} when
 * paying twice.
 */
public interface PayableOrders {

  /** The order of the tenant, paid or not. */
  PayableOrder find(String tenantId, String orderId);

  /** The order, if it still awaits its payment; a paid order is refused. */
  PayableOrder findUnpaid(String tenantId, String orderId);

  /** Marks the order paid in the caller's transaction (a transaction must be active). */
  void markPaid(String tenantId, String orderId);
}
