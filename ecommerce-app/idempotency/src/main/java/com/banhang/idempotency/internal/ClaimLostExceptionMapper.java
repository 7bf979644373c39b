package com.banhang.idempotency.internal;

import com.banhang.idempotency.ClaimLostException;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** A worker lost its key to a takeover: its work was rolled back and the new owner answers. */
@Provider
public class ClaimLostExceptionMapper implements ExceptionMapper<ClaimLostException> {

  @Inject IdempotencyProblems problems;
  @Inject RequestLifecycle lifecycle;

  @Override
  public Response toResponse(ClaimLostException e) {
    return problems.keyInUse(e.claim().operation(), lifecycle.expiresAt());
  }
}
