package com.banhang.shop.orders.application;

import com.banhang.shop.orders.api.PayableOrder;
import com.banhang.shop.orders.api.PayableOrders;
import com.banhang.shop.orders.domain.model.Order;
import com.banhang.shop.orders.domain.model.OrderAlreadyPaidException;
import com.banhang.shop.orders.domain.model.OrderStatus;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

/** {@link PayableOrders} over the orders' application service. */
@ApplicationScoped
public class DefaultPayableOrders implements PayableOrders {

  @Inject OrderService orders;

  @Override
  public PayableOrder find(String tenantId, String orderId) {
    return view(orders.order(tenantId, orderId));
  }

  @Override
  public PayableOrder findUnpaid(String tenantId, String orderId) {
    PayableOrder order = find(tenantId, orderId);
    if (order.paid()) {
      throw new OrderAlreadyPaidException(orderId);
    }
    return order;
  }

  @Override
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
