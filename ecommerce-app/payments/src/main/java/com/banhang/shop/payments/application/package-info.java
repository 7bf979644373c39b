/**
 * The payments use cases, each owning its transactions: starting and recording a payment attempt
 * ({@code PaymentService}), completing the Idempotency-Key with the client's answer as the last
 * write of the transaction ({@code ChargeCompletion}), and the implementations of the published
 * {@code api} (reconciliation, the late-charge sweep, operator resolutions, the console's reads).
 * Also the ports the adapters implement: {@code PaymentGateway} (the processor) and {@code
 * SettledPaymentResponses} (the REST layer's answer), with the gateway's charge types, the gateway
 * key derivation and the bound of a charge call (docs/payments.md). May depend on the domain model,
 * the {@code api} it implements, {@code orders.api}, the idempotency library's public API and
 * Jakarta's CDI, transactions and {@code Response}; never on {@code api.rest} or infrastructure.
 */
package com.banhang.shop.payments.application;
