package com.banhang.shop.orders.api;

import com.banhang.shop.orders.application.OrderService;
import com.banhang.shop.orders.domain.model.Order;
import com.banhang.shop.orders.domain.model.OrderAlreadyPaidException;
import com.banhang.shop.orders.domain.model.OrderStatus;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

/**
 * The orders context as the payments context sees it; payments uses nothing else of orders.
 *
 * <p>Throws {@link com.banhang.shop.orders.domain.model.OrderNotFoundException} for an order of
 * another tenant, and {@link com.banhang.shop.orders.domain.model.OrderAlreadyPaidException} when
 * paying twice.
 */
@ApplicationScoped
public class PayableOrders {

  @Inject OrderService orders;

  public PayableOrder find(String tenantId, String orderId) {
    return view(orders.order(tenantId, orderId));
  }

  /** The order, if it still awaits its payment; a paid order is refused. */
  public PayableOrder findUnpaid(String tenantId, String orderId) {
    PayableOrder order = find(tenantId, orderId);
    if (order.paid()) {
      throw new OrderAlreadyPaidException(orderId);
    }
    return order;
  }

  /** Marks the order paid in the caller's transaction. */
  @Transactional(Transactional.TxType.MANDATORY)
  public void markPaid(String tenantId, String orderId) {
    orders.order(tenantId, orderId).markPaid();
  }

  private static PayableOrder view(Order order) {
    return new PayableOrder(
        order.id(),
        order.tenantId(),
        order.currency(),
        order.total(),
        order.status() == OrderStatus.PAID);
  }
}
