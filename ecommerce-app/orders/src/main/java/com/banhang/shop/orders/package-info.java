/**
 * Orders: a customer's basket turned into an order awaiting payment. The domain package holds the
 * order and its invariants, application the use cases, infrastructure their JPA persistence, rest
 * the REST resource that maps HTTP onto the use cases, and api what the payments context may use:
 * {@link com.banhang.shop.orders.api.PayableOrders}.
 */
package com.banhang.shop.orders;
