package com.banhang.idempotency.internal;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.core.Response;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * The RFC 9457 problems the library answers itself. Idempotency problems also name the operation and
 * when the key expires, so a client knows how long its retries are safe.
 */
@ApplicationScoped
public class IdempotencyProblems {

  public static final String MEDIA_TYPE = "application/problem+json";

  @Inject IdempotencySettings settings;

  public Response response(
      int status, String slug, String title, String detail, String operation, Instant expiresAt) {
    return Response.status(status)
        .type(MEDIA_TYPE)
        .entity(body(status, slug, title, detail, operation, expiresAt))
        .build();
  }

  public byte[] body(
      int status, String slug, String title, String detail, String operation, Instant expiresAt) {
    JsonObjectBuilder problem =
        Json.createObjectBuilder()
            .add("type", settings.problemType(slug))
            .add("title", title)
            .add("status", status)
            .add("detail", detail);
    if (operation != null) {
      problem.add("operation", operation);
    }
    if (expiresAt != null) {
      problem.add("idempotencyKeyExpiresAt", expiresAt.toString());
    }
    return problem.build().toString().getBytes(StandardCharsets.UTF_8);
  }

  public Response keyInUse(String operation, Instant expiresAt) {
    return withRetryAfter(
        response(
            409,
            "idempotency-key-in-use",
            "Idempotency key in use",
            "a request with this key is still being processed; retry after a moment",
            operation,
            expiresAt));
  }

  public Response withRetryAfter(Response response) {
    return Response.fromResponse(response)
        .header("Retry-After", settings.retryAfterSeconds())
        .build();
  }
}
