package com.banhang.gateway.sandbox.api;

import com.banhang.gateway.sandbox.webhook.WebhookAttempt;
import jakarta.json.bind.annotation.JsonbPropertyOrder;

/**
 * One delivery attempt as the webhook endpoints show it.
 *
 * @param number 1, 2, ... in the order made
 * @param kind {@code delivery}, {@code lost}, {@code duplicate} or {@code resend}
 * @param startedAt ISO-8601 instant in UTC
 * @param statusCode the shop's HTTP status, or null when none came
 * @param error what went wrong without a status, or null
 * @param durationMs how long it took
 */
@JsonbPropertyOrder({"number", "kind", "startedAt", "statusCode", "error", "durationMs"})
public record WebhookAttemptJson(
    int number, String kind, String startedAt, Integer statusCode, String error, long durationMs) {

  /** The API view of an attempt. */
  public static WebhookAttemptJson of(WebhookAttempt attempt) {
    return new WebhookAttemptJson(
        attempt.number(),
        attempt.kind().wireName(),
        attempt.startedAt().toString(),
        attempt.statusCode(),
        attempt.error(),
        attempt.durationMs());
  }
}
