package com.banhang.idempotency.internal;

import com.banhang.idempotency.Idempotent;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;

/**
 * The request and response filter of one {@link Idempotent} resource method. It holds the method's
 * policy and hands every request to the {@link IdempotencyGate}, which is a CDI bean; this object
 * is created by {@link IdempotencyFeature}, outside CDI.
 */
public class IdempotencyFilter implements ContainerRequestFilter, ContainerResponseFilter {

  private final Idempotent policy;
  private volatile IdempotencyGate gate;

  IdempotencyFilter(Idempotent policy) {
    this.policy = policy;
  }

  @Override
  public void filter(ContainerRequestContext request) {
    gate().beforeMethod(policy, request);
  }

  @Override
  public void filter(ContainerRequestContext request, ContainerResponseContext response) {
    gate().afterMethod(request, response);
  }

  private IdempotencyGate gate() {
    IdempotencyGate current = gate;
    if (current == null) {
      current = CDI.current().select(IdempotencyGate.class).get();
      gate = current;
    }
    return current;
  }
}
