package com.banhang.gateway.sandbox.api;

import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/**
 * Gives the errors JAX-RS raises itself (unknown path, wrong method, unsupported media type) the
 * sandbox's JSON error shape, keeping their status.
 */
@Provider
public class WebApplicationExceptionMapper implements ExceptionMapper<WebApplicationException> {

  @Override
  public Response toResponse(WebApplicationException exception) {
    Response original = exception.getResponse();
    int status = original.getStatus();
    Response.StatusType type = Response.Status.fromStatusCode(status);
    String code = type == null ? "http_" + status : type.toString().toLowerCase().replace(' ', '_');
    Response.ResponseBuilder answer =
        Response.fromResponse(ApiError.response(status, code, exception.getMessage()));
    // Keep the headers that tell the client what to do next (Allow on 405, for one).
    original
        .getStringHeaders()
        .forEach(
            (name, values) -> {
              if (!name.equalsIgnoreCase("Content-Type")
                  && !name.equalsIgnoreCase("Content-Length")) {
                values.forEach(value -> answer.header(name, value));
              }
            });
    return answer.build();
  }
}
