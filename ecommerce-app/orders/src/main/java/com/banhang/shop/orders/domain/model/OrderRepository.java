package com.banhang.shop.orders.domain.model;

import java.util.Optional;

/** Orders by tenant: a tenant never sees another tenant's order, not even that it exists. */
public interface OrderRepository {

  /**
   * Stores a new order and makes the database check it now.
   *
   * @throws MerchantOrderIdTakenException when the tenant already has an order with its merchant id
   */
  void add(Order order);

  Optional<Order> find(String tenantId, String orderId);

  /**
   * The ids of the orders of any tenant whose merchant order id is exactly {@code merchantOrderId},
   * newest first, at most {@code limit}: for operators, who search across tenants.
   */
  java.util.List<String> idsByMerchantOrderId(String merchantOrderId, int limit);
}
