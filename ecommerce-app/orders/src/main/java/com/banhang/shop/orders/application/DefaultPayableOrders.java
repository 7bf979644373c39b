package com.banhang.shop.orders.application;

import com.banhang.shop.orders.api.PayableOrder;
import com.banhang.shop.orders.api.PayableOrders;
import com.banhang.shop.orders.domain.model.Order;
import com.banhang.shop.orders.domain.model.OrderAlreadyPaidException;
import com.banhang.shop.orders.domain.model.OrderNotFoundException;
import com.banhang.shop.orders.domain.model.OrderRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

/** {@link PayableOrders}: the orders as the payments context reads and pays them. */
@ApplicationScoped
public class DefaultPayableOrders implements PayableOrders {

  @Inject OrderRepository orders;

  @Override
  public PayableOrder find(String tenantId, String orderId) {
    return view(order(tenantId, orderId));
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
    order(tenantId, orderId).markPaid();
  }

  private Order order(String tenantId, String orderId) {
    return orders.find(tenantId, orderId).orElseThrow(() -> new OrderNotFoundException(orderId));
  }

  private static PayableOrder view(Order order) {
    return new PayableOrder(
        order.id(),
        order.tenantId(),
        order.currency(),
        order.total(),
        order.status() == Order.Status.PAID);
  }
}
