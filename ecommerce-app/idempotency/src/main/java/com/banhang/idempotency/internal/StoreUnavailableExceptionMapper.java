package com.banhang.idempotency.internal;

import com.banhang.idempotency.IdempotencyStoreUnavailableException;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** The store failed while a method ran: fail closed with 503, its transaction is rolled back. */
@Provider
public class StoreUnavailableExceptionMapper
    implements ExceptionMapper<IdempotencyStoreUnavailableException> {

  @Inject IdempotencyProblems problems;
  @Inject RequestLifecycle lifecycle;

  @Override
  public Response toResponse(IdempotencyStoreUnavailableException e) {
    return problems.storeUnavailable(
        "the result of this request could not be recorded; retry later with the same key",
        lifecycle.operation(),
        lifecycle.expiresAt());
  }
}
