package com.banhang.idempotency.internal;

import com.banhang.idempotency.OutcomeUnknownException;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/**
 * The first attempt whose remote effect is unknown is answered 504; its retries get 409 with the
 * same problem type from the stored record until reconciliation decides.
 */
@Provider
public class OutcomeUnknownExceptionMapper implements ExceptionMapper<OutcomeUnknownException> {

  @Inject IdempotencyProblems problems;
  @Inject RequestLifecycle lifecycle;

  @Override
  public Response toResponse(OutcomeUnknownException e) {
    return problems.outcomeUnknown(
        504,
        e.problemType(),
        e.getMessage() + "; it is being reconciled, retry later with the same key",
        lifecycle.operation(),
        lifecycle.expiresAt());
  }
}
