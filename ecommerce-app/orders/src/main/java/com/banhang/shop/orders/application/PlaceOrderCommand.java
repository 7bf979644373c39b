package com.banhang.shop.orders.application;

import java.util.List;

/** What a customer asks for when placing an order; already validated at the boundary. */
public record PlaceOrderCommand(
    String tenantId, String merchantOrderId, String currency, List<Line> lines) {

  public record Line(String sku, int quantity, long unitPrice) {}
}
