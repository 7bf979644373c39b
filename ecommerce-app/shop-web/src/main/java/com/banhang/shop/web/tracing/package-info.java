/**
 * Traces (docs/observability.md, "Traces"): the switch that turns Liberty's OpenTelemetry SDK on
 * only when an OTLP endpoint is configured, and the {@code Trace-Id} header that gives a caller the
 * trace of its request (docs/problems.md). Depends on the OpenTelemetry API that Liberty's {@code
 * mpTelemetry-2.0} provides, and on nothing of the shop's contexts.
 */
package com.banhang.shop.web.tracing;
