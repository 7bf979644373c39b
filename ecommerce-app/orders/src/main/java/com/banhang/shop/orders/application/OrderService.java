package com.banhang.shop.orders.application;

import com.banhang.shop.orders.domain.model.Order;
import com.banhang.shop.orders.domain.model.OrderLine;
import com.banhang.shop.orders.domain.model.OrderNotFoundException;
import com.banhang.shop.orders.domain.model.OrderPlaced;
import com.banhang.shop.orders.domain.model.OrderRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

/** Placing and reading orders. */
@ApplicationScoped
public class OrderService {

  @Inject OrderRepository orders;

  /** Fired inside the transaction once the order is written (see {@link OrderPlaced}). */
  @Inject Event<OrderPlaced> placed;

  /** Joins the caller's transaction, so an idempotent caller completes its key in the same one. */
  @Transactional
  public Order placeOrder(PlaceOrderCommand command) {
    Order order =
        new Order(
            command.tenantId(),
            command.merchantOrderId(),
            command.currency(),
            command.lines().stream()
                .map(l -> new OrderLine(l.sku(), l.quantity(), l.unitPrice()))
                .toList());
    orders.add(order);
    placed.fire(new OrderPlaced(order));
    return order;
  }

  public Order order(String tenantId, String orderId) {
    return orders.find(tenantId, orderId).orElseThrow(() -> new OrderNotFoundException(orderId));
  }
}
