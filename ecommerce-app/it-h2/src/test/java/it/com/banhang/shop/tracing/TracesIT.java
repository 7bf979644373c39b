package it.com.banhang.shop.tracing;

import static it.com.banhang.shop.Payments.newOrder;
import static it.com.banhang.shop.Payments.pay;
import static it.com.banhang.shop.ShopApi.newKey;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.opentelemetry.proto.trace.v1.Span.SpanKind;
import io.restassured.response.Response;
import it.com.banhang.shop.Payments;
import it.com.banhang.shop.Sandbox;
import it.com.banhang.shop.tracing.OtlpReceiver.ReceivedSpan;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * One keyed payment as one trace (docs/observability.md, "Traces"), received by an OTLP/HTTP
 * receiver in this JVM that both test servers export to (it-h2's pom: otel.exporter.otlp.endpoint
 * of the shop and the sandbox): the shop's server span of the request; the idempotency library's
 * phases with the operation and their outcome; the payment's transactions; the gateway call's
 * client span, continued by the sandbox's server span in the same trace (the W3C traceparent the
 * Rest Client sent); and the Trace-Id header on the answers, a problem's among them. A replay is a
 * trace of its own whose admission says {@code replayed}. No span of any of these traces names the
 * Idempotency-Key or a value of the request's body.
 */
class TracesIT {

  private static final String SHOP = "shop";
  private static final String SANDBOX = "gateway-sandbox";
  private static final String OPERATION = "payments.charge";

  private static OtlpReceiver receiver;

  @BeforeAll
  static void receive() throws Exception {
    receiver = new OtlpReceiver(Integer.getInteger("otlp.port"));
  }

  @AfterAll
  static void stop() {
    receiver.close();
  }

  @AfterEach
  void noFaults() {
    Sandbox.noFaults();
  }

  @Test
  void aKeyedPayment_isOneTrace_throughItsPhases_theGatewayCall_andTheSandbox() {
    String orderId = newOrder("alice");
    String key = newKey();

    Response paid = pay("alice", orderId, key, "pm_card_ok");

    assertThat(paid.statusCode()).isEqualTo(201);
    String traceId = paid.header("Trace-Id");
    assertThat(traceId).as("the answer's Trace-Id").matches("[0-9a-f]{32}");
    List<ReceivedSpan> trace =
        awaitTrace(
            traceId,
            spans ->
                has(spans, SHOP, SpanKind.SPAN_KIND_SERVER)
                    && has(spans, SANDBOX, SpanKind.SPAN_KIND_SERVER)
                    && hasNamed(spans, "payments.record")
                    && hasNamed(spans, "idempotency.complete"));

    ReceivedSpan request = only(trace, SHOP, SpanKind.SPAN_KIND_SERVER);
    assertThat(request.parentSpanId()).as("the request starts the trace").isEmpty();
    assertThat(request.name()).contains("/payments");
    ReceivedSpan admit = phase(trace, "idempotency.admit");
    ReceivedSpan claim = phase(trace, "idempotency.claim");
    ReceivedSpan execute = phase(trace, "idempotency.execute");
    ReceivedSpan complete = phase(trace, "idempotency.complete");
    for (ReceivedSpan span : List.of(admit, claim, execute, complete)) {
      assertThat(span.attributes())
          .as(span.name())
          .containsEntry("idempotency.operation", OPERATION);
      assertThat(span.scope()).isEqualTo("com.banhang.idempotency");
    }
    assertThat(claim.attributes()).containsEntry("idempotency.outcome", "claimed");
    assertThat(complete.attributes()).containsEntry("idempotency.outcome", "completed");
    assertThat(List.of(admit, claim, execute))
        .allSatisfy(span -> assertThat(span.parentSpanId()).isEqualTo(request.spanId()));
    ReceivedSpan start = phase(trace, "payments.start");
    ReceivedSpan record = phase(trace, "payments.record");
    assertThat(List.of(start, record))
        .allSatisfy(span -> assertThat(span.parentSpanId()).isEqualTo(execute.spanId()));
    assertThat(complete.parentSpanId())
        .as("the key is completed in the recording transaction")
        .isEqualTo(record.spanId());

    // One client span per try of the gateway call (a slow machine may make the adapter retry).
    List<ReceivedSpan> gatewayCalls = all(trace, SHOP, SpanKind.SPAN_KIND_CLIENT);
    assertThat(gatewayCalls).as("the gateway call's client spans in %s", names(trace)).isNotEmpty();
    for (ReceivedSpan gatewayCall : gatewayCalls) {
      assertThat(ancestors(trace, gatewayCall)).contains(execute.spanId());
      assertThat(gatewayCall.span().getStartTimeUnixNano())
          .as("the gateway is called between the two transactions")
          .isGreaterThanOrEqualTo(start.span().getEndTimeUnixNano())
          .isLessThanOrEqualTo(record.span().getStartTimeUnixNano());
    }
    List<String> callIds = gatewayCalls.stream().map(ReceivedSpan::spanId).toList();
    assertThat(all(trace, SANDBOX, SpanKind.SPAN_KIND_SERVER))
        .as("the sandbox continued the trace from the traceparent of the shop's call")
        .allSatisfy(atTheSandbox -> assertThat(callIds).contains(atTheSandbox.parentSpanId()));

    // A replay: a trace of its own, answered at admission.
    Response replay = pay("alice", orderId, key, "pm_card_ok");
    assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
    String replayTraceId = replay.header("Trace-Id");
    assertThat(replayTraceId).matches("[0-9a-f]{32}").isNotEqualTo(traceId);
    List<ReceivedSpan> replayTrace =
        awaitTrace(
            replayTraceId,
            spans ->
                hasNamed(spans, "idempotency.admit")
                    && has(spans, SHOP, SpanKind.SPAN_KIND_SERVER));
    assertThat(phase(replayTrace, "idempotency.admit").attributes())
        .containsEntry("idempotency.operation", OPERATION)
        .containsEntry("idempotency.outcome", "replayed");
    assertThat(replayTrace).noneMatch(span -> span.name().equals("idempotency.claim"));
    assertThat(replayTrace).noneMatch(span -> span.kind() == SpanKind.SPAN_KIND_CLIENT);

    // A problem: the key reused for another card, 422; its Trace-Id is its own request's.
    Response reused = pay("alice", orderId, key, "pm_card_declined");
    assertThat(reused.statusCode()).isEqualTo(422);
    assertThat(reused.contentType()).startsWith("application/problem+json");
    String problemTraceId = reused.header("Trace-Id");
    assertThat(problemTraceId).matches("[0-9a-f]{32}").isNotIn(traceId, replayTraceId);
    List<ReceivedSpan> problemTrace =
        awaitTrace(
            problemTraceId,
            spans ->
                hasNamed(spans, "idempotency.admit")
                    && has(spans, SHOP, SpanKind.SPAN_KIND_SERVER));
    assertThat(only(problemTrace, SHOP, SpanKind.SPAN_KIND_SERVER).attributes())
        .containsEntry("http.response.status_code", "422");
    assertThat(phase(problemTrace, "idempotency.admit").attributes())
        .containsEntry("idempotency.outcome", "key_reused");

    for (List<ReceivedSpan> spans : List.of(trace, replayTrace, problemTrace)) {
      assertThat(spans)
          .allSatisfy(
              span ->
                  assertThat(span.attributes().values())
                      .as("the attributes of %s", span.name())
                      .noneMatch(value -> value.contains(key))
                      .noneMatch(value -> value.contains("pm_card")));
    }
  }

  @Test
  void anUnknownOutcome_isMarkedInItsTrace_andALogLineOfARequestCarriesItsTraceId() {
    String orderId = newOrder("alice");
    String key = newKey();
    // Charged, then every answer for that key is lost: the outcome is unknown (GatewayFaultsIT).
    Sandbox.faults(
        "{\"dropResponseProbability\":1,\"faultsOnReplays\":true,\"dropMode\":\"GATEWAY_TIMEOUT\"}");

    Response unknown = pay("alice", orderId, key, "pm_card_ok");

    assertThat(unknown.statusCode()).isEqualTo(504);
    assertThat(unknown.contentType()).startsWith("application/problem+json");
    String traceId = unknown.header("Trace-Id");
    assertThat(traceId).matches("[0-9a-f]{32}");
    List<ReceivedSpan> trace =
        awaitTrace(
            traceId,
            spans ->
                hasNamed(spans, "idempotency.settle")
                    && has(spans, SHOP, SpanKind.SPAN_KIND_SERVER));
    assertThat(only(trace, SHOP, SpanKind.SPAN_KIND_SERVER).attributes())
        .containsEntry("http.response.status_code", "504");
    ReceivedSpan execute = phase(trace, "idempotency.execute");
    assertThat(execute.span().getStatus().getCode().name()).isEqualTo("STATUS_CODE_ERROR");
    assertThat(execute.attributes().get("error.type")).endsWith("OutcomeUnknownException");
    assertThat(phase(trace, "idempotency.settle").attributes())
        .containsEntry("idempotency.operation", OPERATION)
        .containsEntry("idempotency.outcome", "marked_unknown");
    assertThat(trace).noneMatch(span -> span.name().equals("payments.record"));
    Sandbox.noFaults();

    // Reconciliation on an operator's request logs its report on the request's thread: the log
    // record exported over OTLP carries that request's trace id.
    Response reconciled = Payments.reconcileNow();
    assertThat(reconciled.statusCode()).isEqualTo(200);
    String reconcileTraceId = reconciled.header("Trace-Id");
    assertThat(reconcileTraceId).matches("[0-9a-f]{32}");
    await()
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(100))
        .untilAsserted(
            () ->
                assertThat(receiver.logs())
                    .anySatisfy(
                        log -> {
                          assertThat(log.service()).isEqualTo(SHOP);
                          assertThat(log.body()).contains("reconciled payments.charge keys");
                          assertThat(log.traceId()).isEqualTo(reconcileTraceId);
                        }));
    assertThat(receiver.logs())
        .allSatisfy(log -> assertThat(log.body()).doesNotContain(key).doesNotContain("pm_card"));
  }

  private static List<ReceivedSpan> awaitTrace(
      String traceId, java.util.function.Predicate<List<ReceivedSpan>> complete) {
    return await()
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(100))
        .until(() -> receiver.trace(traceId), complete);
  }

  private static boolean has(List<ReceivedSpan> spans, String service, SpanKind kind) {
    return spans.stream().anyMatch(s -> s.service().equals(service) && s.kind() == kind);
  }

  private static boolean hasNamed(List<ReceivedSpan> spans, String name) {
    return spans.stream().anyMatch(s -> s.name().equals(name));
  }

  private static List<ReceivedSpan> all(List<ReceivedSpan> trace, String service, SpanKind kind) {
    return trace.stream().filter(s -> s.service().equals(service) && s.kind() == kind).toList();
  }

  private static ReceivedSpan only(List<ReceivedSpan> trace, String service, SpanKind kind) {
    List<ReceivedSpan> found = all(trace, service, kind);
    assertThat(found).as("%s spans of %s in %s", kind, service, names(trace)).hasSize(1);
    return found.get(0);
  }

  private static ReceivedSpan phase(List<ReceivedSpan> trace, String name) {
    List<ReceivedSpan> found = trace.stream().filter(s -> s.name().equals(name)).toList();
    assertThat(found).as("spans named %s in %s", name, names(trace)).hasSize(1);
    return found.get(0);
  }

  private static List<String> ancestors(List<ReceivedSpan> trace, ReceivedSpan span) {
    Map<String, String> parents =
        trace.stream()
            .collect(
                java.util.stream.Collectors.toMap(
                    ReceivedSpan::spanId, ReceivedSpan::parentSpanId, (a, b) -> a));
    List<String> found = new java.util.ArrayList<>();
    String parent = span.parentSpanId();
    while (parent != null && !parent.isEmpty()) {
      found.add(parent);
      parent = Optional.ofNullable(parents.get(parent)).orElse(null);
    }
    return found;
  }

  private static List<String> names(List<ReceivedSpan> trace) {
    return trace.stream().map(s -> s.service() + ":" + s.name() + ":" + s.kind()).toList();
  }
}
