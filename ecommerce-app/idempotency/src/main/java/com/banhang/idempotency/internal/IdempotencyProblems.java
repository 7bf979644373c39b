package com.banhang.idempotency.internal;

import com.banhang.idempotency.ProblemDetails;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.time.Instant;

/**
 * Builds the library's problem answers from the catalogue ({@link IdempotencyProblem}). Each also
 * names the operation and when the key expires, so a client knows how long its retries are safe;
 * the answers that ask the client to come back carry {@code Retry-After}.
 */
@ApplicationScoped
public class IdempotencyProblems {

  public static final String MEDIA_TYPE = ProblemDetails.MEDIA_TYPE;

  @Inject IdempotencySettings settings;

  /** {@code problem} with {@code detail}, as a response. */
  Response response(
      IdempotencyProblem problem, String detail, String operation, Instant expiresAt) {
    return document(problem.status(), problem.slug(), problem.title(), detail, operation, expiresAt)
        .toResponse();
  }

  /** {@code problem} with {@code detail}, as the bytes of a body. */
  byte[] body(IdempotencyProblem problem, String detail, String operation, Instant expiresAt) {
    return document(problem.status(), problem.slug(), problem.title(), detail, operation, expiresAt)
        .toJson();
  }

  /** 409 with Retry-After: another request with this key is running (or took this one's claim). */
  Response keyInUse(String operation, Instant expiresAt) {
    return withRetryAfter(
        response(
            IdempotencyProblem.KEY_IN_USE,
            "a request with this key is still being processed; retry after a moment",
            operation,
            expiresAt));
  }

  /** 503 with Retry-After: the key could not be read or recorded. */
  Response storeUnavailable(String detail, String operation, Instant expiresAt) {
    return withRetryAfter(
        response(IdempotencyProblem.STORE_UNAVAILABLE, detail, operation, expiresAt));
  }

  /** 429: this tenant used up its new keys of the operation on this server for now. */
  Response tooManyNewKeys(String operation, Duration retryAfter, Instant expiresAt) {
    long seconds = Math.max(1, (retryAfter.toMillis() + 999) / 1000);
    return Response.fromResponse(
            response(
                IdempotencyProblem.TOO_MANY_NEW_KEYS,
                "too many new Idempotency-Keys for this operation; retries of keys already used"
                    + " are still answered; send new keys again after "
                    + seconds
                    + " s",
                operation,
                expiresAt))
        .header("Retry-After", seconds)
        .build();
  }

  /**
   * The operation's own "outcome unknown" problem ({@code slug}, from its {@code @Idempotent}): 504
   * to the attempt that lost track of its effect, 409 to every retry until reconciliation decides.
   */
  byte[] outcomeUnknownBody(
      int status, String slug, String detail, String operation, Instant expiresAt) {
    return document(status, slug, "Outcome unknown", detail, operation, expiresAt).toJson();
  }

  /** {@link #outcomeUnknownBody} as a response with Retry-After. */
  Response outcomeUnknown(
      int status, String slug, String detail, String operation, Instant expiresAt) {
    return withRetryAfter(
        document(status, slug, "Outcome unknown", detail, operation, expiresAt).toResponse());
  }

  Response withRetryAfter(Response response) {
    return Response.fromResponse(response)
        .header("Retry-After", settings.retryAfterSeconds())
        .build();
  }

  private static ProblemDetails document(
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
}
