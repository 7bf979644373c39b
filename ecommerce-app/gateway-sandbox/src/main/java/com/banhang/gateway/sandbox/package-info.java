/**
 * The gateway sandbox: a card processor for tests and demos, idempotent per key like a real one,
 * with faults injected on demand. This package holds the JAX-RS application under {@code /v1} and
 * the start-up work. The sandbox shares no code with the shop: the shop never depends on it, and it
 * depends on nothing of the shop or the idempotency library.
 */
package com.banhang.gateway.sandbox;
