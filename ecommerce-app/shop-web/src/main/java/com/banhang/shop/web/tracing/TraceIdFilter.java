package com.banhang.shop.web.tracing;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.ext.Provider;

/**
 * Puts the request's trace id on its answer as {@value #HEADER} (32 lowercase hex digits), so that
 * a caller who reports a problem can name the trace an operator looks up (docs/problems.md, "Trace
 * id"). A header and not a member of the problem document: a stored answer is replayed byte for
 * byte, and a member would give a replay the trace id of the first attempt. The header is added
 * after the library stored the answer, so it is never stored and a replay carries its own trace.
 *
 * <p>The trace is the one of the request's server span, which Liberty's {@code mpTelemetry-2.0}
 * starts before any filter of the application; it is read when the request arrives, since the span
 * is no longer current once Liberty's own response filter ends it. With the SDK off there is no
 * trace and no header.
 */
@Provider
@Priority(Priorities.AUTHENTICATION - 100)
public class TraceIdFilter implements ContainerRequestFilter, ContainerResponseFilter {

  public static final String HEADER = "Trace-Id";

  private static final String PROPERTY = TraceIdFilter.class.getName() + ".traceId";

  @Override
  public void filter(ContainerRequestContext request) {
    String traceId = currentTraceId();
    if (traceId != null) {
      request.setProperty(PROPERTY, traceId);
    }
  }

  @Override
  public void filter(ContainerRequestContext request, ContainerResponseContext response) {
    Object traceId = request.getProperty(PROPERTY);
    if (traceId == null) {
      traceId = currentTraceId();
    }
    if (traceId != null) {
      response.getHeaders().putSingle(HEADER, traceId);
    }
  }

  /** The current span's trace id, or null when there is no sampled trace. */
  static String currentTraceId() {
    SpanContext context = Span.current().getSpanContext();
    return context.isValid() ? context.getTraceId() : null;
  }
}
