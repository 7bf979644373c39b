package com.banhang.idempotency.internal;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.CDI;

/**
 * {@link PhaseSpans} through the OpenTelemetry API, with the server's {@link OpenTelemetry} (the
 * bean MicroProfile Telemetry provides). Loaded only when that API is on the class path.
 */
final class OpenTelemetryPhaseSpans implements PhaseSpans.Tracing {

  /** The instrumentation scope of the library's spans. */
  static final String SCOPE = "com.banhang.idempotency";

  private final Tracer tracer;

  /**
   * The innermost phase span open on this thread: an event is the outcome of that phase, never of a
   * span the library did not start (the request's server span, a background job's).
   */
  private final ThreadLocal<Span> open = new ThreadLocal<>();

  OpenTelemetryPhaseSpans(OpenTelemetry openTelemetry) {
    this.tracer = openTelemetry.getTracer(SCOPE);
  }

  /** The server's OpenTelemetry, or null when it has none. */
  static PhaseSpans.Tracing lookUp() {
    Instance<OpenTelemetry> openTelemetry = CDI.current().select(OpenTelemetry.class);
    return openTelemetry.isResolvable() ? new OpenTelemetryPhaseSpans(openTelemetry.get()) : null;
  }

  @Override
  public PhaseSpans.Span start(String phase, String operation) {
    Span span =
        tracer
            .spanBuilder("idempotency." + phase)
            .setAttribute(PhaseSpans.OPERATION, operation)
            .startSpan();
    Scope scope = span.makeCurrent();
    Span outer = open.get();
    open.set(span);
    return new PhaseSpans.Span() {
      @Override
      public void failed(Throwable failure) {
        span.setStatus(StatusCode.ERROR);
        span.setAttribute("error.type", failure.getClass().getName());
      }

      @Override
      public void close() {
        if (outer == null) {
          open.remove();
        } else {
          open.set(outer);
        }
        scope.close();
        span.end();
      }
    };
  }

  @Override
  public void outcome(String outcome) {
    Span phase = open.get();
    if (phase != null) {
      phase.setAttribute(PhaseSpans.OUTCOME, outcome);
    }
  }
}
