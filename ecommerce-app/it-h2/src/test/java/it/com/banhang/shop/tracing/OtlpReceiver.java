package it.com.banhang.shop.tracing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import java.util.zip.GZIPInputStream;

/**
 * An OTLP/HTTP receiver in the test's JVM (the protocol's protobuf encoding, {@code POST
 * /v1/traces}, {@code /v1/logs}; anything else is accepted and dropped): what a collector would be
 * given, decoded, for the test to assert on. Bound to loopback.
 */
final class OtlpReceiver implements AutoCloseable {

  /** One exported span with the service that sent it. */
  record ReceivedSpan(String service, String scope, Span span) {

    String traceId() {
      return hex(span.getTraceId().toByteArray());
    }

    String spanId() {
      return hex(span.getSpanId().toByteArray());
    }

    String parentSpanId() {
      return hex(span.getParentSpanId().toByteArray());
    }

    String name() {
      return span.getName();
    }

    Span.SpanKind kind() {
      return span.getKind();
    }

    /** The attributes as strings (every value kind in its text form). */
    Map<String, String> attributes() {
      return span.getAttributesList().stream()
          .collect(Collectors.toMap(KeyValue::getKey, a -> text(a.getValue()), (a, b) -> a));
    }
  }

  /** One exported log record with the service that sent it. */
  record ReceivedLog(String service, String body, String traceId) {}

  private final HttpServer server;
  private final List<ReceivedSpan> spans = new CopyOnWriteArrayList<>();
  private final List<ReceivedLog> logs = new CopyOnWriteArrayList<>();

  OtlpReceiver(int port) throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 50);
    server.createContext("/", this::handle);
    server.start();
  }

  List<ReceivedSpan> spans() {
    return List.copyOf(spans);
  }

  List<ReceivedLog> logs() {
    return List.copyOf(logs);
  }

  List<ReceivedSpan> trace(String traceId) {
    return spans.stream().filter(s -> s.traceId().equals(traceId)).toList();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      byte[] body;
      try (InputStream in = body(exchange)) {
        body = in.readAllBytes();
      }
      byte[] answer;
      switch (exchange.getRequestURI().getPath()) {
        case "/v1/traces" -> {
          received(ExportTraceServiceRequest.parseFrom(body));
          answer = ExportTraceServiceResponse.getDefaultInstance().toByteArray();
        }
        case "/v1/logs" -> {
          received(ExportLogsServiceRequest.parseFrom(body));
          answer = ExportLogsServiceResponse.getDefaultInstance().toByteArray();
        }
        default -> answer = new byte[0];
      }
      exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
      exchange.sendResponseHeaders(200, answer.length == 0 ? -1 : answer.length);
      exchange.getResponseBody().write(answer);
    }
  }

  private static InputStream body(HttpExchange exchange) throws IOException {
    InputStream in = exchange.getRequestBody();
    return "gzip".equalsIgnoreCase(exchange.getRequestHeaders().getFirst("Content-Encoding"))
        ? new GZIPInputStream(in)
        : in;
  }

  private void received(ExportTraceServiceRequest request) {
    for (ResourceSpans resource : request.getResourceSpansList()) {
      String service = service(resource.getResource());
      for (ScopeSpans scope : resource.getScopeSpansList()) {
        for (Span span : scope.getSpansList()) {
          spans.add(new ReceivedSpan(service, scope.getScope().getName(), span));
        }
      }
    }
  }

  private void received(ExportLogsServiceRequest request) {
    for (ResourceLogs resource : request.getResourceLogsList()) {
      String service = service(resource.getResource());
      for (ScopeLogs scope : resource.getScopeLogsList()) {
        for (LogRecord log : scope.getLogRecordsList()) {
          logs.add(
              new ReceivedLog(service, text(log.getBody()), hex(log.getTraceId().toByteArray())));
        }
      }
    }
  }

  private static String service(Resource resource) {
    return resource.getAttributesList().stream()
        .filter(a -> a.getKey().equals("service.name"))
        .map(a -> text(a.getValue()))
        .findFirst()
        .orElse("");
  }

  private static String text(AnyValue value) {
    return switch (value.getValueCase()) {
      case STRING_VALUE -> value.getStringValue();
      case BOOL_VALUE -> Boolean.toString(value.getBoolValue());
      case INT_VALUE -> Long.toString(value.getIntValue());
      case DOUBLE_VALUE -> Double.toString(value.getDoubleValue());
      case BYTES_VALUE -> hex(value.getBytesValue().toByteArray());
      default -> value.toString();
    };
  }

  private static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(bytes);
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
