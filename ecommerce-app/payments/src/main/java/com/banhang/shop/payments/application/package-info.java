/**
 * The payments use cases, each owning its transactions: paying an order and completing its
 * Idempotency-Key with the client's answer ({@code PayOrder}), the lifecycle of a payment ({@code
 * PaymentService}), and the implementations of the published {@code api} (reconciliation, the
 * late-charge sweep, operator resolutions, the console's reads). Also the port the gateway adapter
 * implements, {@code PaymentGateway}, with what crosses it, the gateway key derivation and the
 * bound of a charge call (docs/payments.md). May depend on the domain model, the {@code api} it
 * implements, {@code orders.api}, the idempotency library's public API and Jakarta's CDI,
 * transactions and {@code Response}; never on {@code rest} or infrastructure.
 */
package com.banhang.shop.payments.application;
