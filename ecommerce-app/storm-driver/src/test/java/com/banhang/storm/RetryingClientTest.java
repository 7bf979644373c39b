package com.banhang.storm;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The customer's app against a local server that answers what each test scripts. */
class RetryingClientTest {

  private HttpServer server;
  private final List<String> seen = new CopyOnWriteArrayList<>();
  private final List<String> nodesHit = new CopyOnWriteArrayList<>();

  /** A server that answers the n-th request with {@code script[n]} (the last one after that). */
  private String serve(int... script) throws IOException {
    return serve("node", script);
  }

  /** As {@link #serve(int...)}, noting {@code node} in {@link #nodesHit} for each request. */
  private String serve(String node, int... script) throws IOException {
    AtomicInteger n = new AtomicInteger();
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/",
        exchange -> {
          byte[] body = exchange.getRequestBody().readAllBytes();
          nodesHit.add(node);
          seen.add(
              exchange.getRequestHeaders().getFirst("Idempotency-Key")
                  + " "
                  + new String(body, StandardCharsets.UTF_8));
          int status = script[Math.min(n.getAndIncrement(), script.length - 1)];
          if (status == 999) {
            sleep(3_000); // longer than the client's timeout
            status = 201;
          }
          if (status == 409) {
            exchange.getResponseHeaders().add("Retry-After", "1");
          }
          if (status == 503) { // as the shop answers it: a problem, with Retry-After
            exchange.getResponseHeaders().add("Content-Type", "application/problem+json");
            exchange.getResponseHeaders().add("Retry-After", "0");
          }
          exchange.sendResponseHeaders(status, -1);
          exchange.close();
        });
    server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
    server.start();
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/x";
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.stop(0);
    }
  }

  @Test
  void retriesATimeoutAnInUseAndA503_withTheSameKeyAndBytes_untilTheAnswer() throws Exception {
    String url = serve(999, 409, 503, 201);
    // 1 s: the answers that must not time out come in time on a loaded build machine (at 300 ms
    // the 409 once did, beside two modules compiling); the slow one takes 3 s.
    RetryingClient client = new RetryingClient(Duration.ofSeconds(1), Duration.ofSeconds(20));

    long started = System.nanoTime();
    RetryingClient.Result outcome = client.post(url, "u", "p", "k-1", "{\"a\":1}", new Random(1));

    assertThat(outcome.status()).isEqualTo(201);
    assertThat(outcome.tries()).isEqualTo(4);
    assertThat(seen).hasSize(4).containsOnly("k-1 {\"a\":1}");
    assertThat(client.requestsSent()).isEqualTo(4);
    assertThat(client.histogram())
        .containsEntry("timeout", 1L)
        .containsEntry("409", 1L)
        .containsEntry("503", 1L)
        .containsEntry("201", 1L);
    assertThat(Duration.ofNanos(System.nanoTime() - started))
        .as("the 409's Retry-After of 1 s was honoured")
        .isGreaterThanOrEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void aDeclineOrARefusalIsFinal_neverRetried() throws Exception {
    RetryingClient client = new RetryingClient(Duration.ofSeconds(2), Duration.ofSeconds(20));

    assertThat(client.post(serve(402), "u", "p", "k", "{}", new Random(1)).status()).isEqualTo(402);
    stop();
    assertThat(client.post(serve(422), "u", "p", "k", "{}", new Random(1)).status()).isEqualTo(422);
    assertThat(client.requestsSent()).isEqualTo(2);
  }

  @Test
  void givesUpAtItsDeadline_andSaysSo() throws Exception {
    String url = serve(503);
    RetryingClient client = new RetryingClient(Duration.ofSeconds(1), Duration.ofMillis(800));

    RetryingClient.Result outcome = client.post(url, "u", "p", "k", "{}", new Random(1));

    assertThat(outcome.abandoned()).isTrue();
    assertThat(outcome.tries()).isGreaterThan(1);
  }

  @Test
  void a5xxWithoutProblemOrRetryAfter_isCountedApart_andStillRetried() throws Exception {
    String url = serve(500, 201);
    RetryingClient client = new RetryingClient(Duration.ofSeconds(2), Duration.ofSeconds(20));

    RetryingClient.Result outcome = client.post(url, "u", "p", "k", "{}", new Random(1));

    assertThat(outcome.status()).isEqualTo(201);
    assertThat(client.histogram()).containsEntry("500 not a problem", 1L).doesNotContainKey("500");
  }

  @Test
  void eachRetryGoesToTheNextNode_theFirstTryToTheGivenOne() throws Exception {
    String nodeA = serve("A", 503);
    HttpServer a = server;
    String nodeB = serve("B", 503, 201);
    HttpServer b = server;
    RetryingClient client = new RetryingClient(Duration.ofSeconds(2), Duration.ofSeconds(20));
    try {
      RetryingClient.Result outcome =
          client.post(List.of(nodeA, nodeB), 1, "u", "p", "k", "{}", new Random(1));

      assertThat(outcome.status()).isEqualTo(201);
      assertThat(nodesHit).containsExactly("B", "A", "B");
      assertThat(seen).containsOnly("k {}");
    } finally {
      a.stop(0);
      b.stop(0);
    }
  }

  @Test
  void retryAfter_secondsOnly() {
    assertThat(RetryingClient.retryAfter("3")).isEqualTo(Duration.ofSeconds(3));
    assertThat(RetryingClient.retryAfter("Wed, 21 Oct 2015 07:28:00 GMT")).isZero();
    assertThat(RetryingClient.retryAfter(null)).isZero();
    assertThat(RetryingClient.isFinal(409)).isFalse();
    assertThat(RetryingClient.isFinal(429)).isFalse();
    assertThat(RetryingClient.isFinal(500)).isFalse();
    assertThat(RetryingClient.isFinal(400)).isTrue();
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
