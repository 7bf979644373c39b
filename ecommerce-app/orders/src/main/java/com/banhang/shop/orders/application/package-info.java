/**
 * The orders use cases: placing an order ({@code OrderService}, {@code PlaceOrderCommand}) and the
 * implementation of the published {@link com.banhang.shop.orders.api.PayableOrders}. Owns the
 * transactions. May depend on the domain model and the {@code api} it implements, never on the REST
 * resources or on another context.
 */
package com.banhang.shop.orders.application;
