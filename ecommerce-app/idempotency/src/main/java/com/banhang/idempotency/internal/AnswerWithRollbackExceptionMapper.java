package com.banhang.idempotency.internal;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** Sends the answer that {@link AnswerWithRollbackException} carries, once its rollback is done. */
@Provider
public class AnswerWithRollbackExceptionMapper
    implements ExceptionMapper<AnswerWithRollbackException> {

  @Override
  public Response toResponse(AnswerWithRollbackException e) {
    return e.answer();
  }
}
