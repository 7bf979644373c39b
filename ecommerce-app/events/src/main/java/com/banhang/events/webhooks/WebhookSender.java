package com.banhang.events.webhooks;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.net.ConnectException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * POSTs one delivery as a Standard Webhooks request and tells how it went: the body exactly as
 * recorded, {@code webhook-id} the event's id (the same on every attempt, the subscriber's key to
 * deduplicate), {@code webhook-timestamp} this attempt's time in seconds, and {@code
 * webhook-signature} one {@code v1,<signature>} per secret of the endpoint.
 *
 * <p>Redirects are never followed: a redirect could lead past the {@link WebhookTargets} guard, and
 * a subscriber that moved says so by changing its configuration. The answer's body is read and
 * discarded, and the whole exchange is bounded by the connect timeout plus the request timeout.
 */
final class WebhookSender {

  private final HttpClient client;
  private final Duration connectTimeout;
  private final Duration timeout;
  private final Clock clock;

  WebhookSender(Duration connectTimeout, Duration timeout, Clock clock) {
    // The client's own executor only runs the few lines that turn an answer into a result; the
    // dispatcher's thread records the outcomes.
    this.client =
        HttpClient.newBuilder()
            .connectTimeout(connectTimeout)
            .followRedirects(HttpClient.Redirect.NEVER)
            .version(HttpClient.Version.HTTP_1_1)
            .build();
    this.connectTimeout = connectTimeout;
    this.timeout = timeout;
    this.clock = clock;
  }

  /** Sends {@code delivery} to {@code endpoint}; the stage always completes normally. */
  CompletableFuture<AttemptResult> send(WebhookEndpoint endpoint, ClaimedDelivery delivery) {
    long timestamp = clock.instant().getEpochSecond();
    HttpRequest request =
        HttpRequest.newBuilder(endpoint.url())
            .timeout(timeout)
            .header("content-type", "application/json")
            .header("webhook-id", delivery.eventId())
            .header("webhook-timestamp", Long.toString(timestamp))
            .header(
                "webhook-signature",
                endpoint.signer().signature(delivery.eventId(), timestamp, delivery.body()))
            .POST(HttpRequest.BodyPublishers.ofString(delivery.body(), UTF_8))
            .build();
    long start = System.nanoTime();
    CompletableFuture<HttpResponse<Void>> exchange;
    try {
      exchange = client.sendAsync(request, HttpResponse.BodyHandlers.discarding());
    } catch (RuntimeException e) {
      return CompletableFuture.completedFuture(AttemptResult.failed(describe(e), 0));
    }
    return exchange
        .orTimeout(connectTimeout.plus(timeout).toMillis(), TimeUnit.MILLISECONDS)
        .handle(
            (response, error) -> {
              long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
              if (error != null) {
                exchange.cancel(true);
                return AttemptResult.failed(describe(error), millis);
              }
              return AttemptResult.answered(
                  response.statusCode(),
                  RetryAfter.parse(
                      response.headers().firstValue("retry-after").orElse(null), clock.instant()),
                  millis);
            });
  }

  /** A failure in words for the delivery log, without the URL (it may carry credentials). */
  private String describe(Throwable error) {
    Throwable cause = error;
    while ((cause instanceof CompletionException || cause instanceof ExecutionException)
        && cause.getCause() != null) {
      cause = cause.getCause();
    }
    if (cause instanceof HttpConnectTimeoutException) {
      return "no connection within " + connectTimeout;
    }
    if (cause instanceof HttpTimeoutException) {
      return "no answer within " + timeout;
    }
    if (cause instanceof TimeoutException) {
      return "the answer did not end within " + connectTimeout.plus(timeout);
    }
    if (cause instanceof ConnectException) {
      return "cannot connect" + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
    }
    return cause.getClass().getSimpleName()
        + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
  }
}
