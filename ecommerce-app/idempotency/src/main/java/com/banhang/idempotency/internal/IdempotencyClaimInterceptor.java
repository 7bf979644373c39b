package com.banhang.idempotency.internal;

import com.banhang.idempotency.Idempotent;
import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

/**
 * The first of the two interceptors, and the reason there are two: its priority is below the
 * Jakarta Transactions interceptor's ({@code PLATFORM_BEFORE + 200}), so it runs after JAX-RS has
 * bound and validated the parameters but before {@code @Transactional} opens the method's
 * transaction. A remote operation's claim is made here and commits on its own ({@link
 * IdempotencyGate#claimBeforeTransaction}).
 *
 * <p>The binding's value is a placeholder: every member of {@link Idempotent} is non-binding.
 */
@Idempotent(operation = "*")
@Interceptor
@Priority(Interceptor.Priority.PLATFORM_BEFORE + 100)
public class IdempotencyClaimInterceptor {

  @Inject IdempotencyGate gate;

  @AroundInvoke
  public Object claimBeforeTransaction(InvocationContext invocation) throws Exception {
    return gate.claimBeforeTransaction(invocation);
  }
}
