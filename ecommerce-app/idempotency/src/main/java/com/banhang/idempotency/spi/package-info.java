/**
 * The store SPI: what a database must do for the library, and nothing about how. {@link
 * com.banhang.idempotency.spi.IdempotencyStore} is a request's path: it claims, completes, releases
 * and reads one key; the claim is one atomic decision by the database (never a check followed by an
 * insert in Java), and every write of an owner is fenced by its attempt number. {@link
 * com.banhang.idempotency.spi.IdempotencyStoreAdministration} is everything outside a request:
 * listing and counting keys, recording a reconciler's check, purging. An implementation proves
 * itself by passing the store contract test that every store in this repository passes. Depends on
 * the public API alone.
 */
package com.banhang.idempotency.spi;
