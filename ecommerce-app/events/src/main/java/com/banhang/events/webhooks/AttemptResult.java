package com.banhang.events.webhooks;

import java.time.Duration;
import java.util.Optional;

/**
 * How one attempt ended.
 *
 * @param httpStatus the subscriber's answer, null when none came
 * @param error why it failed, null for a 2xx
 * @param retryAfter the delay the subscriber asked for ({@code Retry-After}), if any
 * @param durationMillis how long the attempt took
 */
public record AttemptResult(
    Integer httpStatus, String error, Optional<Duration> retryAfter, long durationMillis) {

  /** An answer from the subscriber, 2xx or not. */
  static AttemptResult answered(int status, Optional<Duration> retryAfter, long durationMillis) {
    boolean success = status >= 200 && status < 300;
    return new AttemptResult(status, success ? null : describe(status), retryAfter, durationMillis);
  }

  /** No answer: the request could not be sent, or was not answered in time. */
  static AttemptResult failed(String error, long durationMillis) {
    return new AttemptResult(null, error, Optional.empty(), durationMillis);
  }

  /** Nothing was sent: the target is not one webhooks may reach. */
  static AttemptResult refused(String reason) {
    return failed("refused target: " + reason, 0);
  }

  boolean succeeded() {
    return httpStatus != null && httpStatus >= 200 && httpStatus < 300;
  }

  /** 410 Gone: the subscriber says the endpoint is gone for good and wants nothing more. */
  boolean gone() {
    return httpStatus != null && httpStatus == 410;
  }

  private static String describe(int status) {
    if (status >= 300 && status < 400) {
      return "HTTP " + status + " (redirects are not followed)";
    }
    return status == 410 ? "HTTP 410 Gone" : "HTTP " + status;
  }
}
