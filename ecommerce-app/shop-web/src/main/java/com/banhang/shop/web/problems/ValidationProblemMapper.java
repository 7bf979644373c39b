package com.banhang.shop.web.problems;

import jakarta.validation.ConstraintViolationException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/**
 * Declared for the exact type so that it replaces the runtime's own mapper of validation failures
 * (a text list); the problem itself comes from {@link ProblemExceptionMapper}.
 */
@Provider
public class ValidationProblemMapper implements ExceptionMapper<ConstraintViolationException> {

  @Override
  public Response toResponse(ConstraintViolationException invalid) {
    return ProblemExceptionMapper.problemFor(invalid).toResponse();
  }
}
