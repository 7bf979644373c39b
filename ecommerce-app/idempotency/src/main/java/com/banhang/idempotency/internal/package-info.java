/**
 * How {@code @Idempotent} works; nothing here is API. {@link
 * com.banhang.idempotency.internal.IdempotencyGate} is the algorithm, every phase of a request in
 * the order it happens; the JAX-RS filter ({@link
 * com.banhang.idempotency.internal.IdempotencyFilter}) and the two CDI interceptors only call it,
 * and it alone moves the request's {@link com.banhang.idempotency.internal.RequestLifecycle}
 * through its {@link com.banhang.idempotency.internal.RequestLifecycle.Phase}s. Around it: key
 * parsing, the request fingerprint, the stored-response capture, the problem catalogue ({@link
 * com.banhang.idempotency.internal.IdempotencyProblem}), settings and their start-up checks, and
 * the exception mappers. May use the public API and the store SPI, never the other way round.
 */
package com.banhang.idempotency.internal;
