/**
 * An outside-in conformance kit for HTTP APIs that take an {@code Idempotency-Key}: {@link
 * com.banhang.conformance.Rules} are the rules (docs/conformance-kit.md), each judged with HTTP
 * alone through {@link com.banhang.conformance.Target}; {@link com.banhang.conformance.Main} runs
 * them from the command line and {@link com.banhang.conformance.IdempotencyConformanceIT} as a
 * JUnit 5 suite. Nothing here knows a server module of this repository.
 */
package com.banhang.conformance;
