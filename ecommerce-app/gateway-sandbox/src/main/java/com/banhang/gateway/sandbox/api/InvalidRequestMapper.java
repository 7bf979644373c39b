package com.banhang.gateway.sandbox.api;

import com.banhang.gateway.sandbox.charge.InvalidRequestException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** Answers a refused request with 400 and its error code. */
@Provider
public class InvalidRequestMapper implements ExceptionMapper<InvalidRequestException> {

  @Override
  public Response toResponse(InvalidRequestException exception) {
    return ApiError.response(
        Response.Status.BAD_REQUEST.getStatusCode(), exception.errorCode(), exception.getMessage());
  }
}
