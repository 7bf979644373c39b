package com.banhang.idempotency.internal;

import com.banhang.idempotency.Idempotent;
import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import jakarta.ws.rs.core.Response;

/**
 * Claims the key of an admitted request when its method is invoked: by then JAX-RS has read the
 * body into the method's parameters and validated them ({@code @Valid}), so a body that fails
 * binding or Bean Validation is answered 400 and claims nothing.
 *
 * <p>Its priority is below the Jakarta Transactions interceptor's ({@code PLATFORM_BEFORE + 200}),
 * so it runs before {@code @Transactional} opens the method's transaction: the claim commits on its
 * own before the method runs (a remote operation holds no transaction during its call, a concurrent
 * duplicate sees the claim at once), and a duplicate is answered without opening one. The
 * completion happens inside that transaction, in {@link IdempotencyInterceptor}.
 *
 * <p>A call without an admitted request (no key, a method called from other code) and a call that
 * already holds a claim pass straight through.
 */
@Idempotent(operation = "*")
@Interceptor
@Priority(Interceptor.Priority.PLATFORM_BEFORE + 100)
public class IdempotencyClaimInterceptor {

  @Inject IdempotentRequestState state;
  @Inject IdempotencyGate gate;

  @AroundInvoke
  public Object claimBeforeTransaction(InvocationContext invocation) throws Exception {
    if (!state.isAdmitted()
        || state.isClaimAttempted()
        || state.claim() != null
        || gate.claimsInTransaction(state.admittedPolicy())) {
      // Nothing to claim, or a local operation's claim, made inside its transaction later.
      return invocation.proceed();
    }
    Response answer = gate.claimAdmitted();
    if (answer != null) {
      return answer;
    }
    return invocation.proceed();
  }
}
