package com.banhang.gateway.sandbox.it;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

/**
 * The shop's end of the sandbox's webhooks, in the test JVM: takes every POST to {@code /webhooks},
 * keeps it, and answers 204, or for an order told otherwise the statuses it was given, one per
 * delivery. The sandbox's IT server delivers here ({@code sandbox.webhooks.url} in the pom).
 */
final class WebhookReceiver implements AutoCloseable {

  /** One delivery as it arrived. */
  record Delivery(Map<String, List<String>> headers, String body, Instant receivedAt) {

    String header(String name) {
      List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
      return values == null || values.isEmpty() ? null : values.get(0);
    }

    JsonObject json() {
      return Json.createReader(new StringReader(body)).readObject();
    }

    String orderReference() {
      return json().getJsonObject("data").getString("orderReference");
    }
  }

  private final HttpServer server;
  private final List<Delivery> deliveries = new CopyOnWriteArrayList<>();
  private final Map<String, Deque<Integer>> scripted = new ConcurrentHashMap<>();

  WebhookReceiver(int port) throws IOException {
    server = HttpServer.create(new InetSocketAddress("localhost", port), 50);
    server.createContext("/webhooks", this::receive);
    server.start();
  }

  /** The next deliveries for {@code orderReference} get these statuses, then 204 again. */
  void answer(String orderReference, Integer... statuses) {
    scripted.put(orderReference, new ArrayDeque<>(List.of(statuses)));
  }

  /** The deliveries of one order's charge so far, in the order they arrived. */
  List<Delivery> of(String orderReference) {
    return deliveries.stream().filter(d -> orderReference.equals(d.orderReference())).toList();
  }

  /**
   * Waits until {@code orderReference} has {@code count} deliveries, for at most {@code timeout},
   * and returns them (fewer if the time ran out: the caller's assertion says what was missing).
   */
  List<Delivery> await(String orderReference, int count, Duration timeout)
      throws InterruptedException {
    return awaitUntil(orderReference, found -> found.size() >= count, timeout);
  }

  List<Delivery> awaitUntil(String orderReference, Predicate<List<Delivery>> done, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    List<Delivery> found = of(orderReference);
    while (!done.test(found) && System.nanoTime() < deadline) {
      Thread.sleep(20);
      found = of(orderReference);
    }
    return found;
  }

  private void receive(HttpExchange exchange) throws IOException {
    try (exchange) {
      String body;
      try (InputStream in = exchange.getRequestBody()) {
        body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
      Map<String, List<String>> headers = new ConcurrentHashMap<>();
      exchange
          .getRequestHeaders()
          .forEach(
              (name, values) -> headers.put(name.toLowerCase(Locale.ROOT), List.copyOf(values)));
      Delivery delivery = new Delivery(headers, body, Instant.now());
      int status = 204;
      String order = null;
      try {
        order = delivery.orderReference();
      } catch (RuntimeException e) {
        status = 400;
      }
      if (order != null) {
        Deque<Integer> script = scripted.get(order);
        synchronized (this) {
          if (script != null && !script.isEmpty()) {
            status = script.poll();
          }
        }
      }
      deliveries.add(delivery);
      exchange.sendResponseHeaders(status, -1);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
