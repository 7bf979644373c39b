/**
 * Payments: charging an order through the payment gateway at most once per payment, whatever the
 * network does. A payment is committed before the gateway is called, with a gateway key derived
 * from the caller's Idempotency-Key, so that every retry (the shop's, the client's,
 * reconciliation's) is deduplicated by the gateway itself. Orders are reached only through {@link
 * com.banhang.shop.orders.api.PayableOrders}.
 */
package com.banhang.shop.payments;
