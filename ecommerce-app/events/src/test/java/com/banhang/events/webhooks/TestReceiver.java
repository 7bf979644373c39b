package com.banhang.events.webhooks;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;

/**
 * A subscriber's HTTP endpoint on 127.0.0.1, in the test's JVM: it records every request it gets
 * and answers as the test says.
 */
final class TestReceiver implements AutoCloseable {

  /** A request as received: headers by case-insensitive name, the body's exact bytes. */
  record Received(Map<String, List<String>> headers, byte[] body) {
    String header(String name) {
      List<String> values = headers.get(name);
      return values == null || values.isEmpty() ? null : values.get(0);
    }
  }

  /** What to answer: a status and extra headers. */
  record Answer(int status, Map<String, String> headers) {
    static Answer of(int status) {
      return new Answer(status, Map.of());
    }
  }

  private final HttpServer server;
  private final ExecutorService threads = Executors.newFixedThreadPool(2);
  private final List<Received> requests = Collections.synchronizedList(new ArrayList<>());
  private volatile Function<Received, Answer> answers;

  private TestReceiver(Function<Received, Answer> answers) throws IOException {
    this.answers = answers;
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/hooks", this::handle);
    server.setExecutor(threads);
    server.start();
  }

  static TestReceiver answering(Function<Received, Answer> answers) throws IOException {
    return new TestReceiver(answers);
  }

  /** Answers the statuses in order, the last one from then on. */
  static TestReceiver answering(int... statuses) throws IOException {
    return new TestReceiver(inOrder(statuses));
  }

  static Function<Received, Answer> inOrder(int... statuses) {
    int[] next = {0};
    return request -> {
      synchronized (next) {
        int status = statuses[Math.min(next[0]++, statuses.length - 1)];
        return Answer.of(status);
      }
    };
  }

  void answer(Function<Received, Answer> answers) {
    this.answers = answers;
  }

  URI url() {
    return URI.create(
        "http://127.0.0.1:" + server.getAddress().getPort() + "/hooks/orders?subscriber=test");
  }

  List<Received> requests() {
    synchronized (requests) {
      return List.copyOf(requests);
    }
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      byte[] body;
      try (InputStream in = exchange.getRequestBody()) {
        body = in.readAllBytes();
      }
      Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
      exchange
          .getRequestHeaders()
          .forEach((name, values) -> headers.put(name, List.copyOf(values)));
      Received received = new Received(Collections.unmodifiableMap(headers), body);
      requests.add(received);
      Answer answer = answers.apply(received);
      answer.headers().forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
      exchange.sendResponseHeaders(answer.status(), -1);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }
}
