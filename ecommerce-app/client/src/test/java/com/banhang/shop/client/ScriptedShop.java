package com.banhang.shop.client;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A stand-in for the shop on a local port: it answers each request with the next scripted reply and
 * records what it received, so a test asserts both what the client did with each answer and what it
 * sent. When the script runs out it answers 418, a final status, so a client that tries more often
 * than the test expects ends at once with a result the test can see.
 */
final class ScriptedShop implements AutoCloseable {

  static final String PROBLEM_BASE = "https://github.com/banhang/shop/blob/main/docs/problems.md#";

  /** One scripted answer; {@code dropConnection} closes the connection without any answer. */
  record Reply(
      int status,
      Map<String, String> headers,
      String body,
      Duration delay,
      boolean dropConnection) {

    Reply header(String name, String value) {
      Map<String, String> more = new LinkedHashMap<>(headers);
      more.put(name, value);
      return new Reply(status, more, body, delay, dropConnection);
    }

    Reply after(Duration delay) {
      return new Reply(status, headers, body, delay, dropConnection);
    }
  }

  /** One request as the server got it. */
  record Received(String method, String path, Headers headers, byte[] body) {
    String key() {
      return headers.getFirst("Idempotency-Key");
    }

    String bodyText() {
      return new String(body, StandardCharsets.UTF_8);
    }
  }

  static Reply created(String json) {
    return new Reply(201, Map.of("Content-Type", "application/json"), json, Duration.ZERO, false);
  }

  static Reply problem(int status, String slug) {
    String body =
        "{\"type\":\""
            + PROBLEM_BASE
            + slug
            + "\",\"title\":\"t-"
            + slug
            + "\",\"status\":"
            + status
            + ",\"detail\":\"d-"
            + slug
            + "\"}";
    return new Reply(
        status, Map.of("Content-Type", "application/problem+json"), body, Duration.ZERO, false);
  }

  static Reply plain(int status, String body) {
    return new Reply(status, Map.of("Content-Type", "text/plain"), body, Duration.ZERO, false);
  }

  static Reply dropConnection() {
    return new Reply(0, Map.of(), "", Duration.ZERO, true);
  }

  private final HttpServer server;
  private final ExecutorService executor = Executors.newCachedThreadPool();
  private final Deque<Reply> script = new ArrayDeque<>();
  private final List<Received> received = new ArrayList<>();

  ScriptedShop() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::answer);
    server.setExecutor(executor);
    server.start();
  }

  URI baseUri() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  synchronized ScriptedShop script(Reply... replies) {
    script.addAll(List.of(replies));
    return this;
  }

  synchronized List<Received> received() {
    return List.copyOf(received);
  }

  private void answer(HttpExchange exchange) throws IOException {
    byte[] body = exchange.getRequestBody().readAllBytes();
    Reply reply;
    synchronized (this) {
      received.add(
          new Received(
              exchange.getRequestMethod(),
              exchange.getRequestURI().getRawPath(),
              exchange.getRequestHeaders(),
              body));
      reply = script.isEmpty() ? plain(418, "script exhausted") : script.poll();
    }
    try {
      Thread.sleep(reply.delay().toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (reply.dropConnection()) {
      // An exception out of the handler makes the server close the connection unanswered.
      throw new IOException("scripted: connection dropped");
    }
    byte[] bytes = reply.body().getBytes(StandardCharsets.UTF_8);
    reply.headers().forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
    exchange.sendResponseHeaders(reply.status(), bytes.length == 0 ? -1 : bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
