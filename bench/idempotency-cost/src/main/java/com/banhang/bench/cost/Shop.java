package com.banhang.bench.cost;

import static com.banhang.bench.cost.CostBench.abort;

import com.banhang.bench.cost.Options.Shape;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The shop over HTTP: one client per connection, the requests of each shape and of the scenario
 * around them (orders to pay, the operator's key lookup and purge, the sandbox's faults, health),
 * and the check of every answer: a wrong one is a {@link WrongAnswer}, never counted.
 */
final class Shop {

  /** A completed key of the replay pool and the body it was completed with. */
  record PooledKey(String key, String body) {}

  /** A wrong answer: never counted, always fatal. */
  static final class WrongAnswer extends RuntimeException {
    WrongAnswer(String message) {
      super(message);
    }
  }

  static final Pattern ORDER_ID = Pattern.compile("\"id\"\\s*:\\s*\"([^\"]+)\"");
  static final String ORDER_BODY =
      "{\"currency\":\"VND\",\"items\":[{\"sku\":\"S-1\",\"quantity\":1,\"unitPrice\":1000}]}";
  static final String PAYMENT_BODY =
      "{\"amount\":1000,\"currency\":\"VND\",\"paymentMethod\":\"pm_card_ok\"}";

  final Options options;
  final String authorization;
  final String operatorAuthorization;
  final HttpClient[] clients;

  /** Outside the measured connections: the conflict's owners, key lookups, the purge. */
  final HttpClient ownerClient;

  /** The replay shape's keys, completed during warm-up and used round-robin. */
  final List<PooledKey> pool = new ArrayList<>();

  final AtomicLong roundRobin = new AtomicLong();

  Shop(Options options) {
    this.options = options;
    this.authorization = basic(options.user, options.password);
    this.operatorAuthorization = basic(options.operator, options.operatorPassword);
    // One client per connection, HTTP/1.1: each keeps one keep-alive connection.
    this.clients = new HttpClient[options.maxConnections()];
    for (int i = 0; i < clients.length; i++) {
      clients[i] = newClient();
    }
    this.ownerClient = newClient();
  }

  static HttpClient newClient() {
    return HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5))
        .followRedirects(HttpClient.Redirect.NEVER)
        .build();
  }

  static String basic(String user, String password) {
    return "Basic "
        + Base64.getEncoder()
            .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
  }

  // ---- requests -------------------------------------------------------------------------------

  HttpRequest createRequest(String key, String body) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(options.baseUrl + "/api/v1/orders"))
            .timeout(Duration.ofSeconds(options.requestTimeoutSeconds))
            .header("Authorization", authorization)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (key != null) {
      b.header("Idempotency-Key", key);
    }
    return b.build();
  }

  HttpRequest paymentRequest(String orderId, String key, int timeoutSeconds) {
    return HttpRequest.newBuilder(
            URI.create(options.baseUrl + "/api/v1/orders/" + orderId + "/payments"))
        .timeout(Duration.ofSeconds(timeoutSeconds))
        .header("Authorization", authorization)
        .header("Content-Type", "application/json")
        .header("Accept", "application/json")
        .header("Idempotency-Key", key)
        .POST(HttpRequest.BodyPublishers.ofString(PAYMENT_BODY))
        .build();
  }

  HttpRequest requestFor(Shape shape) {
    return switch (shape) {
      case KEYED -> createRequest(UUID.randomUUID().toString(), ORDER_BODY);
      case UNKEYED -> createRequest(null, ORDER_BODY);
      case REPLAY -> {
        PooledKey k = pool.get((int) (roundRobin.getAndIncrement() % pool.size()));
        yield createRequest(k.key(), k.body());
      }
      case CONFLICT -> throw new IllegalStateException("conflict has its own loop");
    };
  }

  /** The operator's "purge now", as the console sends it. */
  HttpRequest purgeRequest() {
    return HttpRequest.newBuilder(URI.create(options.baseUrl + "/api/v1/admin/purges"))
        .timeout(Duration.ofSeconds(options.purgeTimeoutSeconds))
        .header("Authorization", operatorAuthorization)
        .header("Content-Type", "application/json")
        .header("X-Requested-By", "banhang-bench")
        .header("Accept", "application/json")
        .header("Idempotency-Key", UUID.randomUUID().toString())
        .POST(HttpRequest.BodyPublishers.ofString("{}"))
        .build();
  }

  HttpResponse<byte[]> send(int worker, HttpRequest request) throws IOException {
    return send(clients[worker], request);
  }

  static HttpResponse<byte[]> send(HttpClient client, HttpRequest request) throws IOException {
    try {
      return client.send(request, HttpResponse.BodyHandlers.ofByteArray());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  // ---- answers --------------------------------------------------------------------------------

  void check(Shape shape, HttpResponse<byte[]> r) {
    switch (shape) {
      case KEYED -> expect(r, 201, false, "keyed create");
      case UNKEYED -> expect(r, 201, false, "unkeyed create");
      case REPLAY -> expect(r, 201, true, "replay");
      case CONFLICT -> {
        expect(r, 409, false, "duplicate while the owner runs");
        String body = text(r);
        if (!body.contains("idempotency-key-in-use")) {
          throw wrong(r, "409 without idempotency-key-in-use");
        }
        if (r.headers().firstValue("Retry-After").isEmpty()) {
          throw wrong(r, "409 without Retry-After");
        }
      }
    }
  }

  static boolean replayed(HttpResponse<byte[]> r) {
    return r.headers().firstValue("Idempotent-Replayed").orElse("").equals("true");
  }

  static void expect(HttpResponse<byte[]> r, int status, boolean replayed, String what) {
    boolean flagged = replayed(r);
    if (r.statusCode() != status || flagged != replayed) {
      throw wrong(
          r,
          what
              + ": expected "
              + status
              + (replayed ? " replayed" : " not replayed")
              + ", got "
              + r.statusCode()
              + (flagged ? " replayed" : ""));
    }
  }

  static WrongAnswer wrong(HttpResponse<byte[]> r, String message) {
    String body = text(r);
    return new WrongAnswer(
        message
            + " ("
            + r.request().method()
            + " "
            + r.request().uri()
            + "): "
            + body.substring(0, Math.min(300, body.length())));
  }

  static String text(HttpResponse<byte[]> r) {
    return new String(r.body(), StandardCharsets.UTF_8);
  }

  // ---- the scenario around the shapes ---------------------------------------------------------

  /** A new order of alice's, to pay: its id. */
  String newOrder() throws IOException {
    HttpResponse<byte[]> r = send(0, createRequest(UUID.randomUUID().toString(), ORDER_BODY));
    expect(r, 201, false, "order for a payment");
    Matcher m = ORDER_ID.matcher(text(r));
    if (!m.find()) {
      throw abort("no order id in " + text(r));
    }
    return m.group(1);
  }

  /** Polls the operator's key lookup until the owner's key exists (its claim committed). */
  boolean awaitClaim(String key, long until) throws IOException, InterruptedException {
    HttpRequest lookup =
        HttpRequest.newBuilder(
                URI.create(
                    options.baseUrl
                        + "/api/v1/admin/keys/"
                        + options.user
                        + "/payments.charge/"
                        + key))
            .timeout(Duration.ofSeconds(10))
            .header("Authorization", operatorAuthorization)
            .header("Accept", "application/json")
            .GET()
            .build();
    while (System.nanoTime() < until) {
      HttpResponse<byte[]> r = send(ownerClient, lookup);
      if (r.statusCode() == 200) {
        return true;
      }
      if (r.statusCode() != 404) {
        throw abort("key lookup answered " + r.statusCode() + ": " + text(r));
      }
      Thread.sleep(10);
    }
    return false;
  }

  void setFaults(String json) throws IOException {
    HttpResponse<byte[]> r =
        send(
            0,
            HttpRequest.newBuilder(URI.create(options.baseUrl + "/gateway/v1/faults"))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(json))
                .build());
    if (r.statusCode() / 100 != 2) {
      throw abort("PUT /gateway/v1/faults answered " + r.statusCode() + ": " + text(r));
    }
  }

  void resetFaults() throws IOException {
    HttpResponse<byte[]> r =
        send(
            0,
            HttpRequest.newBuilder(URI.create(options.baseUrl + "/gateway/v1/faults"))
                .timeout(Duration.ofSeconds(10))
                .DELETE()
                .build());
    if (r.statusCode() / 100 != 2) {
      throw abort("DELETE /gateway/v1/faults answered " + r.statusCode() + ": " + text(r));
    }
  }

  void requireHealthy() throws IOException {
    HttpResponse<byte[]> r =
        send(
            0,
            HttpRequest.newBuilder(URI.create(options.baseUrl + "/health"))
                .timeout(Duration.ofSeconds(10))
                .GET()
                .build());
    if (r.statusCode() != 200) {
      throw abort("GET /health answered " + r.statusCode() + ": " + text(r));
    }
  }
}
