package com.banhang.idempotency.internal;

import com.banhang.idempotency.Idempotent;
import jakarta.annotation.Priority;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import java.util.List;

/**
 * The three doors into the {@link IdempotencyGate}: the request and response filter of one {@link
 * Idempotent} resource method, and the two interceptors around the method ({@link
 * BeforeTransactionInterceptor}, {@link InTransactionInterceptor}). The filter holds the method's
 * policy and hands every request to the {@link IdempotencyGate}, which is a CDI bean; this object
 * is created by {@link IdempotencyFeature}, outside CDI.
 *
 * <p>Under the comparison-only mode {@link OperationMode#OPTIONAL}, a request without a key never
 * reaches the gate: nothing is admitted ({@link RequestLifecycle.Phase#UNGUARDED}), so both
 * interceptors pass straight through and the method runs unprotected. A keyed request is handled as
 * under {@link OperationMode#ENFORCED}. Under {@link OperationMode#OFF} every request passes
 * through (the feature registers no filter then).
 */
public class IdempotencyFilter implements ContainerRequestFilter, ContainerResponseFilter {

  /** Set on a request this filter let through without the gate, so its response is left alone. */
  static final String PASSED_THROUGH = IdempotencyFilter.class.getName() + ".passedThrough";

  private final Idempotent policy;
  private final OperationMode mode;
  private volatile IdempotencyGate gate;

  IdempotencyFilter(Idempotent policy, OperationMode mode) {
    this(policy, mode, null);
  }

  /** With {@code gate} given (tests); null looks the gate up in CDI on first use. */
  IdempotencyFilter(Idempotent policy, OperationMode mode, IdempotencyGate gate) {
    this.policy = policy;
    this.mode = mode;
    this.gate = gate;
  }

  @Override
  public void filter(ContainerRequestContext request) {
    if (passesThrough(request)) {
      request.setProperty(PASSED_THROUGH, Boolean.TRUE);
      return;
    }
    gate().admit(policy, request);
  }

  @Override
  public void filter(ContainerRequestContext request, ContainerResponseContext response) {
    if (request.getProperty(PASSED_THROUGH) != null) {
      return;
    }
    gate().settle(request, response);
  }

  /** Whether the comparison-only mode keeps this request away from the gate. */
  private boolean passesThrough(ContainerRequestContext request) {
    return switch (mode) {
      case ENFORCED -> false;
      case OFF -> true;
      case OPTIONAL -> {
        // "Presented" as the gate defines it: any header line, even an empty one, is a key.
        List<String> keyValues = request.getHeaders().get(IdempotencyGate.KEY_HEADER);
        yield keyValues == null || keyValues.isEmpty();
      }
    };
  }

  private IdempotencyGate gate() {
    IdempotencyGate current = gate;
    if (current == null) {
      current = CDI.current().select(IdempotencyGate.class).get();
      gate = current;
    }
    return current;
  }

  /**
   * The first of the two interceptors, and the reason there are two: its priority is below the
   * Jakarta Transactions interceptor's ({@code PLATFORM_BEFORE + 200}), so it runs after JAX-RS has
   * bound and validated the parameters but before {@code @Transactional} opens the method's
   * transaction. A remote operation's claim is made here and commits on its own ({@link
   * IdempotencyGate#claimBeforeTransaction}). The binding's value is a placeholder: every member of
   * {@link Idempotent} is non-binding.
   */
  @Idempotent(operation = "*")
  @Interceptor
  @Priority(Interceptor.Priority.PLATFORM_BEFORE + 100)
  public static class BeforeTransactionInterceptor {

    @Inject IdempotencyGate gate;

    @AroundInvoke
    public Object claimBeforeTransaction(InvocationContext invocation) throws Exception {
      return gate.claimBeforeTransaction(invocation);
    }
  }

  /**
   * The second interceptor: its priority is after the Jakarta Transactions interceptor's, so it
   * runs inside the method's JTA transaction, where a local operation's key is claimed and every
   * operation's response is stored ({@link IdempotencyGate#executeInTransaction}): the completed
   * key commits with the business rows or not at all.
   */
  @Idempotent(operation = "*")
  @Interceptor
  @Priority(Interceptor.Priority.APPLICATION)
  public static class InTransactionInterceptor {

    @Inject IdempotencyGate gate;

    @AroundInvoke
    public Object executeInTransaction(InvocationContext invocation) throws Exception {
      return gate.executeInTransaction(invocation);
    }
  }
}
