/**
 * How {@code @Idempotent} works: the request filter (key, fingerprint, claim, answers for retries),
 * the interceptor (captures and stores the result inside the business transaction), and the
 * response filter (settles a claim the method did not complete: release, store a business
 * rejection, or mark the outcome unknown). Nothing here is API.
 */
package com.banhang.idempotency.internal;
