package com.banhang.idempotency.internal;

import com.banhang.idempotency.ProblemDetails;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.Response;
import java.time.Instant;

/**
 * The problems the library answers itself. Idempotency problems also name the operation and when
 * the key expires, so a client knows how long its retries are safe.
 */
@ApplicationScoped
public class IdempotencyProblems {

  public static final String MEDIA_TYPE = ProblemDetails.MEDIA_TYPE;

  @Inject IdempotencySettings settings;

  public Response response(
      int status, String slug, String title, String detail, String operation, Instant expiresAt) {
    return problem(status, slug, title, detail, operation, expiresAt).toResponse();
  }

  public byte[] body(
      int status, String slug, String title, String detail, String operation, Instant expiresAt) {
    return problem(status, slug, title, detail, operation, expiresAt).toJson();
  }

  private static ProblemDetails problem(
      int status, String slug, String title, String detail, String operation, Instant expiresAt) {
    ProblemDetails problem = new ProblemDetails(status, slug, title, detail);
    if (operation != null) {
      problem = problem.with("operation", operation);
    }
    if (expiresAt != null) {
      problem = problem.with("idempotencyKeyExpiresAt", expiresAt.toString());
    }
    return problem;
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
