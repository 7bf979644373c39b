/**
 * The orders REST resources under {@code /api/v1/orders} and their request and response shapes
 * (docs/idempotency.md shows {@code OrderResource}): an inbound adapter that turns HTTP into calls
 * of the application services. Not part of the context's {@code api}, which the application
 * implements and so must not call it back. May depend on {@code application}, the domain model, the
 * idempotency library's public API and Jakarta REST; nothing depends on it but the WAR that serves
 * it.
 */
package com.banhang.shop.orders.rest;
