/**
 * The store SPI: what a database must do for the library, and nothing about how. {@link
 * com.banhang.idempotency.spi.IdempotencyStore} claims, completes, releases and lists keys; the
 * claim is one atomic decision by the database (never a check followed by an insert in Java), and
 * every write of an owner is fenced by its attempt number. An implementation proves itself by
 * passing the store contract test that every store in this repository passes.
 */
package com.banhang.idempotency.spi;
