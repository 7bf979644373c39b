package com.banhang.idempotency.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.TracerProvider;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class OpenTelemetryPhaseSpansTest {

  private static final AttributeKey<String> OPERATION =
      AttributeKey.stringKey(PhaseSpans.OPERATION);
  private static final AttributeKey<String> OUTCOME = AttributeKey.stringKey(PhaseSpans.OUTCOME);

  private final List<SpanData> ended = new CopyOnWriteArrayList<>();
  private final SdkTracerProvider provider =
      SdkTracerProvider.builder()
          .addSpanProcessor(
              SimpleSpanProcessor.create(
                  new SpanExporter() {
                    @Override
                    public CompletableResultCode export(Collection<SpanData> spans) {
                      ended.addAll(spans);
                      return CompletableResultCode.ofSuccess();
                    }

                    @Override
                    public CompletableResultCode flush() {
                      return CompletableResultCode.ofSuccess();
                    }

                    @Override
                    public CompletableResultCode shutdown() {
                      return CompletableResultCode.ofSuccess();
                    }
                  }))
          .build();

  /** The server's OpenTelemetry as far as the library uses it: its tracers. */
  private final OpenTelemetry sdk =
      new OpenTelemetry() {
        @Override
        public TracerProvider getTracerProvider() {
          return provider;
        }

        @Override
        public ContextPropagators getPropagators() {
          return ContextPropagators.noop();
        }
      };

  private final OpenTelemetryPhaseSpans spans = new OpenTelemetryPhaseSpans(sdk);

  @AfterEach
  void shutDown() {
    provider.close();
  }

  private SpanData named(String name) {
    return ended.stream().filter(s -> s.getName().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void aPhase_isAChildOfTheRequestsSpan_withItsOperationAndOutcome_andNothingElse() {
    Tracer tracer = sdk.getTracer("test");
    Span request = tracer.spanBuilder("request").startSpan();
    try (Scope scope = request.makeCurrent()) {
      try (PhaseSpans.Span claim = spans.start("claim", "payments.charge")) {
        spans.outcome("claimed");
      }
      // An event with no phase open (a background job's, say) marks no span.
      spans.outcome("released");
    } finally {
      request.end();
    }

    SpanData claim = named("idempotency.claim");
    assertThat(claim.getParentSpanId()).isEqualTo(request.getSpanContext().getSpanId());
    assertThat(claim.getTraceId()).isEqualTo(request.getSpanContext().getTraceId());
    assertThat(claim.getInstrumentationScopeInfo().getName()).isEqualTo("com.banhang.idempotency");
    assertThat(claim.getAttributes().asMap())
        .containsOnlyKeys(OPERATION, OUTCOME)
        .containsEntry(OPERATION, "payments.charge")
        .containsEntry(OUTCOME, "claimed");
    assertThat(named("request").getAttributes().get(OUTCOME)).isNull();
  }

  @Test
  void anEvent_isTheOutcomeOfTheInnermostOpenPhase_andTheOuterOneGetsItsOwnBack() {
    try (PhaseSpans.Span execute = spans.start("execute", "payments.charge")) {
      try (PhaseSpans.Span complete = spans.start("complete", "payments.charge")) {
        spans.outcome("completed");
      }
      spans.outcome("marked_unknown");
    }

    assertThat(named("idempotency.complete").getAttributes().get(OUTCOME)).isEqualTo("completed");
    assertThat(named("idempotency.complete").getParentSpanId())
        .isEqualTo(named("idempotency.execute").getSpanId());
    assertThat(named("idempotency.execute").getAttributes().get(OUTCOME))
        .isEqualTo("marked_unknown");
  }

  @Test
  void aFailure_marksTheSpanWithTheExceptionsClass_neverItsMessage() {
    try (PhaseSpans.Span execute = spans.start("execute", "orders.create")) {
      execute.failed(new IllegalStateException("merchantOrderId mo-SECRET is taken"));
    }

    SpanData execute = named("idempotency.execute");
    assertThat(execute.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
    assertThat(execute.getStatus().getDescription()).isEmpty();
    assertThat(execute.getEvents()).isEmpty();
    assertThat(execute.getAttributes().asMap().values())
        .contains("java.lang.IllegalStateException")
        .noneMatch(value -> value.toString().contains("SECRET"));
  }

  @Test
  void withoutACdiContainer_thePhasesRunUntraced() {
    PhaseSpans untraced = new PhaseSpans();
    try (PhaseSpans.Span span = untraced.start("claim", "orders.create")) {
      span.failed(new IllegalStateException());
    }
    assertThat(Span.current().getSpanContext().isValid()).isFalse();
  }
}
