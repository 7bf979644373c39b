/**
 * The library's public API, all an application needs: {@link com.banhang.idempotency.Idempotent} on
 * a JAX-RS resource method, {@link com.banhang.idempotency.IdempotentRequest} for an operation that
 * completes its key itself, {@link com.banhang.idempotency.IdempotencyKeys} for keys outside a
 * request (reconciliation, retention, operator consoles), the records and events they hand out, and
 * the exceptions an operation throws to say what happened. Applications never use the {@code spi},
 * {@code jdbc} or {@code internal} packages.
 */
package com.banhang.idempotency;
