/**
 * The orders context's published facade: what other contexts may call, and nothing else of orders.
 * The rule of every context's {@code api} package: only interfaces, records and events (types
 * without behaviour of their own); their implementations are application services in {@code
 * application}, and nothing here depends on the REST resources in {@code rest}. Today it is {@link
 * com.banhang.shop.orders.api.PayableOrders}, the payments context's view of an order. May depend
 * on the JDK only.
 */
package com.banhang.shop.orders.api;
