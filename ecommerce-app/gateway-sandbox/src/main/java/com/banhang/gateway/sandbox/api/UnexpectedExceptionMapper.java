package com.banhang.gateway.sandbox.api;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Answers anything unforeseen (a database failure, a bug) with 500 {@code internal_error} in the
 * JSON error shape, and logs it: a test double that fails must say so loudly, but never with an
 * HTML page.
 */
@Provider
public class UnexpectedExceptionMapper implements ExceptionMapper<Throwable> {

  private static final Logger LOG = Logger.getLogger(UnexpectedExceptionMapper.class.getName());

  @Override
  public Response toResponse(Throwable exception) {
    LOG.log(Level.SEVERE, "Gateway sandbox request failed", exception);
    return ApiError.response(
        Response.Status.INTERNAL_SERVER_ERROR.getStatusCode(),
        "internal_error",
        exception.getClass().getSimpleName() + ": " + exception.getMessage());
  }
}
