package com.banhang.gateway.sandbox.webhook;

import java.time.Instant;

/**
 * One attempt to deliver an event, as recorded.
 *
 * @param eventId the event
 * @param number 1, 2, ... in the order the attempts were made
 * @param kind scheduled, lost, duplicate or resend
 * @param startedAt when it began
 * @param statusCode the shop's HTTP status, or null when nothing came back (lost, timeout, refused)
 * @param error what went wrong without a status, or null
 * @param durationMs how long it took
 */
public record WebhookAttempt(
    String eventId,
    int number,
    WebhookAttemptKind kind,
    Instant startedAt,
    Integer statusCode,
    String error,
    long durationMs) {

  /** Whether the shop took the event (a 2xx). */
  public boolean succeeded() {
    return statusCode != null && statusCode >= 200 && statusCode < 300;
  }
}
