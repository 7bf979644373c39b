package com.banhang.shop.orders.application;

import com.banhang.shop.orders.domain.model.Order;
import com.banhang.shop.orders.domain.model.OrderNotFoundException;
import com.banhang.shop.orders.domain.model.OrderRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** Reading one order of a tenant, as its customer sees it. */
@ApplicationScoped
public class FindOrder {

  @Inject OrderRepository orders;

  /**
   * @throws OrderNotFoundException when the tenant has no such order, whoever else may have one
   */
  public Order order(String tenantId, String orderId) {
    return orders.find(tenantId, orderId).orElseThrow(() -> new OrderNotFoundException(orderId));
  }
}
