package com.banhang.idempotency;

import jakarta.enterprise.util.Nonbinding;
import jakarta.interceptor.InterceptorBinding;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a Jakarta REST resource method whose effect must happen at most once per {@code
 * Idempotency-Key}.
 *
 * <p>Before the method runs, a request filter validates the key, fingerprints the request and
 * claims the key in the {@link com.banhang.idempotency.spi.IdempotencyStore}; a retry is answered
 * from the stored response without running the method. Around the method, an interceptor captures
 * the response and stores it in the caller's JTA transaction, so the business rows and the
 * completed key commit together.
 *
 * <p>The annotation is both the interceptor binding and the marker that {@code IdempotencyFeature}
 * looks for; its members are {@link Nonbinding} so one interceptor serves every operation.
 */
@Documented
@InterceptorBinding
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface Idempotent {

  /** Stable operation name, part of the key's scope and of the fingerprint, e.g. orders.create. */
  @Nonbinding
  String operation();

  /**
   * How long a key stays bound to its first result, as an ISO-8601 duration. A retry after expiry
   * is a new request. Overridable per operation by the config property {@code
   * idempotency.operations.<operation>.ttl}.
   */
  @Nonbinding
  String ttl() default "PT24H";

  /** Whether a request without a key is rejected (400) or simply runs without protection. */
  @Nonbinding
  boolean keyRequired() default true;

  /**
   * Where the operation's side effects happen; decides whether an abandoned claim may be taken
   * over.
   */
  @Nonbinding
  SideEffects sideEffects() default SideEffects.LOCAL;

  /**
   * Problem type slug of the 409 given to retries of a {@link SideEffects#REMOTE} key whose request
   * ended without an answer (its lease ran out: a crash), e.g. {@code payment-outcome-unknown}.
   */
  @Nonbinding
  String outcomeUnknownProblem() default "outcome-unknown";
}
