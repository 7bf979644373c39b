package com.banhang.shop.orders.domain.model;

/**
 * A domain event: an order was placed. {@code PlaceOrder} fires it synchronously inside the placing
 * transaction, after the order's rows were written and before the transaction commits, so an
 * observer sees the order as it will be committed, and an observer that throws rolls the order back
 * with it. The orders context's {@code OrderEvents} writes it to the outbox (docs/events.md); the
 * integration servers also deploy one that fails a given SKU (ecommerce-app/it-faults,
 * docs/testing.md), which rolls back the order and its event together.
 */
public record OrderPlaced(Order order) {}
