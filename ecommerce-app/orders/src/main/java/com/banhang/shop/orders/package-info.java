/**
 * Orders: a customer's basket turned into an order awaiting payment. The domain package holds the
 * order and its invariants, application the use cases, infrastructure their JPA persistence, and
 * api what the outside world may use: the REST resource and, for the payments context, {@link
 * com.banhang.shop.orders.api.PayableOrders}.
 */
package com.banhang.shop.orders;
