package com.banhang.storm;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The customer's app: one request sent again with the same key and the same bytes until it gets an
 * answer it can act on, or until it gives up.
 *
 * <ul>
 *   <li>Retried: no answer in time (the client's timeout), a broken connection, 409 (the key is in
 *       use, or the payment's outcome is unknown), 429, and 5xx (a 500 after a rollback, 503, 504).
 *   <li>Final: 2xx, 402 (declined), and any other 4xx.
 *   <li>Between tries: exponential backoff with full jitter (a random wait between zero and the
 *       current bound), at least what Retry-After asks, and never past the request's deadline.
 * </ul>
 *
 * <p>Counts every request sent and every answer's status, for the storm's table.
 */
final class RetryingClient {

  /** What one request finally came to. */
  record Result(int status, String body, int tries) {

    /** The client gave up: no final answer before the deadline. */
    static Result abandoned(int tries) {
      return new Result(0, "", tries);
    }

    boolean abandoned() {
      return status == 0;
    }
  }

  private static final Duration FIRST_BACKOFF = Duration.ofMillis(100);
  private static final Duration MAX_BACKOFF = Duration.ofSeconds(2);

  private final HttpClient http;
  private final Duration timeout;
  private final Duration giveUpAfter;
  private final AtomicLong sent = new AtomicLong();
  private final Map<String, AtomicLong> statuses = new ConcurrentHashMap<>();

  RetryingClient(Duration timeout, Duration giveUpAfter) {
    this.http =
        HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(2))
            .version(HttpClient.Version.HTTP_1_1)
            .build();
    this.timeout = timeout;
    this.giveUpAfter = giveUpAfter;
  }

  /** POSTs {@code body} under {@code key} until a final answer or the deadline. */
  Result post(String url, String user, String password, String key, String body, Random jitter) {
    return post(List.of(url), 0, user, password, key, body, jitter);
  }

  /**
   * POSTs {@code body} under {@code key} until a final answer or the deadline; the first try goes
   * to {@code urls[first]}, and each retry to the next URL, as a balancer may send it to another
   * node.
   */
  Result post(
      List<String> urls,
      int first,
      String user,
      String password,
      String key,
      String body,
      Random jitter) {
    long deadline = System.nanoTime() + giveUpAfter.toNanos();
    Duration bound = FIRST_BACKOFF;
    int tries = 0;
    while (true) {
      tries++;
      Duration retryAfter = Duration.ZERO;
      try {
        String url = urls.get((first + tries - 1) % urls.size());
        HttpResponse<String> response = http.send(request(url, user, password, key, body), text());
        count(label(response));
        if (isFinal(response.statusCode())) {
          return new Result(response.statusCode(), response.body(), tries);
        }
        retryAfter = retryAfter(response.headers().firstValue("Retry-After").orElse(null));
      } catch (HttpTimeoutException e) {
        count("timeout");
      } catch (IOException e) {
        count("connection error");
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return Result.abandoned(tries);
      }
      long wait = Math.max(retryAfter.toMillis(), (long) (jitter.nextDouble() * bound.toMillis()));
      if (System.nanoTime() + wait * 1_000_000 >= deadline) {
        return Result.abandoned(tries);
      }
      sleep(wait);
      bound =
          bound.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : bound.multipliedBy(2);
    }
  }

  /** GETs {@code url} once, as {@code user}; the body, or null unless 200. */
  String get(String url, String user, String password) throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).GET();
    if (user != null) {
      request.header("Authorization", basic(user, password));
    }
    HttpResponse<String> response = http.send(request.build(), text());
    return response.statusCode() == 200 ? response.body() : null;
  }

  /** Sends {@code body} once with {@code method}; the status. */
  int send(String method, String url, String user, String password, String body)
      throws IOException, InterruptedException {
    return exchange(method, url, user, password, body).statusCode();
  }

  /** Sends {@code body} once with {@code method}; the answer. */
  HttpResponse<String> exchange(
      String method, String url, String user, String password, String body)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(url))
            .timeout(Duration.ofSeconds(60))
            .header("Content-Type", "application/json")
            // The operator API's cross-site request guard (docs/operations.md).
            .header("X-Requested-By", "banhang-storm")
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    if (user != null) {
      request.header("Authorization", basic(user, password));
    }
    return http.send(request.build(), text());
  }

  long requestsSent() {
    return sent.get();
  }

  /** Answers by status ("201", "409", ...) and tries with no answer ("timeout", ...). */
  Map<String, Long> histogram() {
    Map<String, Long> copy = new java.util.TreeMap<>();
    statuses.forEach((status, n) -> copy.put(status, n.get()));
    return copy;
  }

  /**
   * The histogram's name for an answer: its status, with what is missing from a 5xx the contract
   * answers as a problem with Retry-After ("503 without Retry-After", "500 not a problem").
   */
  static String label(HttpResponse<String> response) {
    int status = response.statusCode();
    if (status < 500) {
      return Integer.toString(status);
    }
    boolean problem =
        response
            .headers()
            .firstValue("Content-Type")
            .map(type -> type.startsWith("application/problem+json"))
            .orElse(false);
    if (!problem) {
      return status + " not a problem";
    }
    return response.headers().firstValue("Retry-After").isPresent()
        ? Integer.toString(status)
        : status + " without Retry-After";
  }

  /** Final: success, a decline, or a refusal that another try would not change. */
  static boolean isFinal(int status) {
    return (status >= 200 && status < 300)
        || (status >= 400 && status < 500 && status != 409 && status != 429);
  }

  /** Retry-After in delta-seconds; an HTTP-date or nothing is no minimum. */
  static Duration retryAfter(String header) {
    if (header == null) {
      return Duration.ZERO;
    }
    try {
      return Duration.ofSeconds(Math.max(0, Long.parseLong(header.trim())));
    } catch (NumberFormatException e) {
      return Duration.ZERO;
    }
  }

  private HttpRequest request(String url, String user, String password, String key, String body) {
    sent.incrementAndGet();
    return HttpRequest.newBuilder(URI.create(url))
        .timeout(timeout)
        .header("Content-Type", "application/json")
        .header("Idempotency-Key", key)
        .header("Authorization", basic(user, password))
        .POST(HttpRequest.BodyPublishers.ofString(body))
        .build();
  }

  private void count(String status) {
    statuses.computeIfAbsent(status, s -> new AtomicLong()).incrementAndGet();
  }

  private static HttpResponse.BodyHandler<String> text() {
    return HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8);
  }

  private static String basic(String user, String password) {
    return "Basic "
        + Base64.getEncoder()
            .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
