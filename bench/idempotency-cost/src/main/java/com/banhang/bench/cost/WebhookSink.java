package com.banhang.bench.cost;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The subscriber of run.sh's shop servers: each delivers its webhooks here, to a path of its own
 * ({@code POST /<server>}), and every delivery is answered 204 at once. A subscriber of a real
 * deployment runs on another machine; here it is a process apart, so that the shop's CPU per
 * request holds the shop's work of recording, relaying and sending its events, and none of a
 * receiver's. It verifies nothing: what it answers does not depend on the body.
 *
 * <p>It counts, per server, the distinct {@code webhook-id}s (the events' ids) and the copies
 * received again (the relay publishes at least once), and remembers the last id: the side-by-side
 * run ({@code --outbox-off-beside}) waits and checks with them. {@code GET /count/<server>} answers
 * the distinct count as plain text, {@code GET /last/<server>} the last id (empty if none), {@code
 * GET /duplicates/<server>} the copies. Run by run.sh: {@code java -cp <classes>
 * com.banhang.bench.cost.WebhookSink <port> <ready-file>}; it listens on 127.0.0.1 only, writes the
 * ready file once it does, and stays up until this JVM is ended.
 */
public final class WebhookSink {

  private final Map<String, Set<String>> ids = new ConcurrentHashMap<>();
  private final Map<String, AtomicLong> duplicates = new ConcurrentHashMap<>();
  private final Map<String, String> last = new ConcurrentHashMap<>();

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: WebhookSink <port> <ready-file>");
      System.exit(64);
    }
    HttpServer server =
        HttpServer.create(
            new InetSocketAddress(InetAddress.getLoopbackAddress(), Integer.parseInt(args[0])),
            256);
    // The dispatcher sends a batch at once; a few threads answer it without queueing for long.
    server.setExecutor(Executors.newFixedThreadPool(8));
    server.createContext("/", new WebhookSink()::handle);
    server.start();
    Files.writeString(Path.of(args[1]), ProcessHandle.current().pid() + "\n");
    System.out.println("webhook sink on http://127.0.0.1:" + server.getAddress().getPort());
    new CountDownLatch(1).await();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange;
        InputStream body = exchange.getRequestBody()) {
      // Read to the end, so that the connection can carry the next delivery.
      body.transferTo(OutputStream.nullOutputStream());
      String[] path = exchange.getRequestURI().getPath().split("/");
      if ("POST".equals(exchange.getRequestMethod()) && path.length == 2) {
        received(path[1], exchange.getRequestHeaders().getFirst("webhook-id"));
        exchange.sendResponseHeaders(204, -1);
      } else if ("GET".equals(exchange.getRequestMethod()) && path.length == 3) {
        answer(exchange, read(path[1], path[2]));
      } else {
        exchange.sendResponseHeaders(404, -1);
      }
    }
  }

  private void received(String server, String webhookId) {
    if (webhookId == null) {
      return;
    }
    if (!ids.computeIfAbsent(server, s -> ConcurrentHashMap.newKeySet()).add(webhookId)) {
      duplicates.computeIfAbsent(server, s -> new AtomicLong()).incrementAndGet();
    }
    last.put(server, webhookId);
  }

  private String read(String what, String server) {
    return switch (what) {
      case "count" -> String.valueOf(ids.getOrDefault(server, Set.of()).size());
      case "duplicates" -> String.valueOf(duplicates.getOrDefault(server, new AtomicLong()).get());
      case "last" -> last.getOrDefault(server, "");
      default -> null;
    };
  }

  private static void answer(HttpExchange exchange, String text) throws IOException {
    if (text == null) {
      exchange.sendResponseHeaders(404, -1);
      return;
    }
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "text/plain");
    exchange.sendResponseHeaders(200, bytes.length == 0 ? -1 : bytes.length);
    exchange.getResponseBody().write(bytes);
  }
}
