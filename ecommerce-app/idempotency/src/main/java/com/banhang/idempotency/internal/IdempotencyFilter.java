package com.banhang.idempotency.internal;

import com.banhang.idempotency.Idempotent;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import java.util.List;

/**
 * The request and response filter of one {@link Idempotent} resource method. It holds the method's
 * policy and hands every request to the {@link IdempotencyGate}, which is a CDI bean; this object
 * is created by {@link IdempotencyFeature}, outside CDI.
 *
 * <p>Under the comparison-only mode {@link OperationMode#OPTIONAL}, a request without a key never
 * reaches the gate: nothing is admitted ({@link RequestPhase#UNGUARDED}), so both interceptors pass
 * straight through and the method runs unprotected. A keyed request is handled as under {@link
 * OperationMode#ENFORCED}. Under {@link OperationMode#OFF} every request passes through (the
 * feature registers no filter then).
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
}
