/**
 * The orders use cases: placing an order ({@code PlaceOrder}), reading one ({@code FindOrder}) and
 * the implementation of the published {@link com.banhang.shop.orders.api.PayableOrders}. Owns the
 * transactions. May depend on the domain model and the {@code api} it implements, never on the REST
 * resources or on another context.
 */
package com.banhang.shop.orders.application;
