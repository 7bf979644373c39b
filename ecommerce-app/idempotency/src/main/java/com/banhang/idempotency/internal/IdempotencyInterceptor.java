package com.banhang.idempotency.internal;

import com.banhang.idempotency.Idempotent;
import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

/**
 * The second of the two interceptors: its priority is after the Jakarta Transactions interceptor's,
 * so it runs inside the method's JTA transaction, where a local operation's key is claimed and
 * every operation's response is stored ({@link IdempotencyGate#executeInTransaction}): the
 * completed key commits with the business rows or not at all.
 *
 * <p>The binding's value is a placeholder: every member of {@link Idempotent} is non-binding.
 */
@Idempotent(operation = "*")
@Interceptor
@Priority(Interceptor.Priority.APPLICATION)
public class IdempotencyInterceptor {

  @Inject IdempotencyGate gate;

  @AroundInvoke
  public Object executeInTransaction(InvocationContext invocation) throws Exception {
    return gate.executeInTransaction(invocation);
  }
}
