package com.banhang.shop.admin.rest;

import com.banhang.idempotency.ProblemDetails;
import com.banhang.shop.admin.application.ActionResult;
import jakarta.ws.rs.core.Response;

/** The problem answers of the operator API (docs/problems.md). */
final class OperatorProblems {

  private OperatorProblems() {}

  static Response badRequest(String detail) {
    return new ProblemDetails(400, "invalid-operator-request", "Invalid operator request", detail)
        .toResponse();
  }

  static Response proposalNotFound(long id) {
    return new ProblemDetails(
            404,
            "override-proposal-not-found",
            "Override proposal not found",
            "no override proposal " + id + " waiting for approval")
        .toResponse();
  }

  static Response gatewayEventNotFound(String provider, String eventId) {
    return new ProblemDetails(
            404,
            "gateway-event-not-found",
            "Gateway event not found",
            "no gateway event " + eventId + " from " + provider)
        .toResponse();
  }

  static Response notFound(String detail) {
    return new ProblemDetails(404, "key-not-found", "Key not found", detail).toResponse();
  }

  /**
   * An action that did not change anything: refused (422), waiting for an override (409), or failed
   * for now (503, may be retried with a new key).
   */
  static Response of(ActionResult result) {
    return switch (result.status()) {
      case DONE, PROPOSED -> throw new IllegalArgumentException("not a problem: " + result);
      case REFUSED ->
          new ProblemDetails(
                  422, "operator-action-refused", "Operator action refused", result.message())
              .toResponse();
      case CONFIRMATION_NEEDED ->
          new ProblemDetails(
                  409,
                  "override-confirmation-needed",
                  "Override confirmation needed",
                  result.message())
              .toResponse();
      case FAILED ->
          Response.fromResponse(
                  new ProblemDetails(
                          503, "operator-action-failed", "Operator action failed", result.message())
                      .toResponse())
              .header("Retry-After", "5")
              .build();
    };
  }
}
