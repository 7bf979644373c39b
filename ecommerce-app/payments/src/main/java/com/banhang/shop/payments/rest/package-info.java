/**
 * The payments REST resources: paying an order ({@code payments.charge}) and reading a payment
 * (docs/payments.md), with the request body of a payment. An inbound adapter that only maps HTTP to
 * the application's use cases and their results to HTTP: the answer a payment stores for its key is
 * built by the application ({@code PayOrder}), which reconciliation and operators complete keys
 * with too. Not part of the context's {@code api}, which the application implements and so must not
 * call it back. May depend on {@code application}, the domain model, the idempotency library's
 * public API and Jakarta REST; nothing in {@code api} or {@code application} depends on it.
 */
package com.banhang.shop.payments.rest;
