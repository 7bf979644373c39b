package com.banhang.gateway.sandbox.api;

import jakarta.json.bind.annotation.JsonbPropertyOrder;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * The body of every error answer: {@code {"error": "<code>", "message": "..."}}.
 *
 * @param error stable machine-readable code, such as {@code idempotency_key_reused}
 * @param message explanation for a person; may change between versions
 */
@JsonbPropertyOrder({"error", "message"})
public record ApiError(String error, String message) {

  /**
   * HTTP 422, which {@link Response.Status} lacks; named so the status line does not say
   * "Undefined".
   */
  public static final int UNPROCESSABLE_CONTENT = 422;

  /** A JSON error response with the given status. */
  public static Response response(int status, String error, String message) {
    Response.ResponseBuilder builder =
        status == UNPROCESSABLE_CONTENT
            ? Response.status(status, "Unprocessable Content")
            : Response.status(status);
    return builder
        .type(MediaType.APPLICATION_JSON_TYPE)
        .entity(new ApiError(error, message))
        .build();
  }
}
