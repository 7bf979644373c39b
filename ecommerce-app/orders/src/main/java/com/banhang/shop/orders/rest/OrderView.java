package com.banhang.shop.orders.rest;

import com.banhang.shop.orders.domain.model.Order;
import java.util.List;

/** An order as the API shows it. */
public record OrderView(
    String id,
    String status,
    String currency,
    long total,
    String merchantOrderId,
    List<Item> items,
    String createdAt) {

  public record Item(String sku, int quantity, long unitPrice) {}

  public static OrderView of(Order order) {
    return new OrderView(
        order.id(),
        order.status().name(),
        order.currency(),
        order.total(),
        order.merchantOrderId(),
        order.lines().stream().map(l -> new Item(l.sku(), l.quantity(), l.unitPrice())).toList(),
        order.createdAt().toInstant().toString());
  }
}
