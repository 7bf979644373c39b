package com.banhang.itarq.app;

import jakarta.json.bind.JsonbException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/**
 * A body JSON-B cannot bind is the client's error (400), as in any application using the library.
 */
@Provider
public class BindingFailureMapper implements ExceptionMapper<JsonbException> {

  @Override
  public Response toResponse(JsonbException e) {
    return Response.status(400).type("text/plain").entity("the body does not bind").build();
  }
}
