/**
 * The payments REST resources: paying an order ({@code payments.charge}), reading a payment, and
 * the operator's runs of reconciliation and of the late-charge sweep (docs/payments.md), with their
 * request and response shapes. {@code PaymentResponses} builds the answer of a settled payment and
 * implements the application's {@code SettledPaymentResponses} port. An inbound adapter: may depend
 * on {@code api}, {@code application}, the domain model, the idempotency library's public API and
 * Jakarta REST; nothing in {@code api} or {@code application} depends on it.
 */
package com.banhang.shop.payments.api.rest;
