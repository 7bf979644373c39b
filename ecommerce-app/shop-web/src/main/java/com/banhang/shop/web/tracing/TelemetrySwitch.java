package com.banhang.shop.web.tracing;

import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * Turns the application's OpenTelemetry SDK on exactly when an OTLP endpoint is configured: {@code
 * otel.sdk.disabled} is {@code false} when {@code otel.exporter.otlp.endpoint} or {@code
 * otel.exporter.otlp.traces.endpoint} is set (as a system property, or in the environment as {@code
 * OTEL_EXPORTER_OTLP_ENDPOINT}, {@code OTEL_EXPORTER_OTLP_TRACES_ENDPOINT}), and {@code true}
 * otherwise. Liberty's {@code mpTelemetry-2.0} reads the application's MicroProfile Config for its
 * {@code otel.*} properties when none turns the SDK on for the whole runtime; without this source
 * it would stay off until an operator also set {@code OTEL_SDK_DISABLED=false}, and with that set
 * and no endpoint it would export to a collector on localhost that production does not have
 * (docs/observability.md, "Traces").
 *
 * <p>Its ordinal is below every source an operator sets, so that an explicit {@code
 * otel.sdk.disabled} still decides. Registered in {@code
 * META-INF/services/org.eclipse.microprofile.config.spi.ConfigSource}.
 */
public final class TelemetrySwitch implements ConfigSource {

  static final String SDK_DISABLED = "otel.sdk.disabled";

  /** The properties that name where spans go; either one turns the SDK on. */
  static final Set<String> ENDPOINTS =
      Set.of("otel.exporter.otlp.endpoint", "otel.exporter.otlp.traces.endpoint");

  /** Below properties files (100), environment variables (300) and system properties (400). */
  static final int ORDINAL = 10;

  private final Map<String, String> properties;

  public TelemetrySwitch() {
    this(TelemetrySwitch::fromSystem);
  }

  /** With {@code lookup} answering a property by its name (tests). */
  TelemetrySwitch(UnaryOperator<String> lookup) {
    this.properties = Map.of(SDK_DISABLED, Boolean.toString(!endpointConfigured(lookup)));
  }

  /** Whether an OTLP endpoint is set, by its property or its environment variable. */
  static boolean endpointConfigured(UnaryOperator<String> lookup) {
    for (String name : ENDPOINTS) {
      for (String spelling : Set.of(name, name.toUpperCase().replace('.', '_'))) {
        String value = lookup.apply(spelling);
        if (value != null && !value.isBlank()) {
          return true;
        }
      }
    }
    return false;
  }

  /** A system property of that name, else an environment variable. */
  private static String fromSystem(String name) {
    String value = System.getProperty(name);
    return value != null ? value : System.getenv(name);
  }

  @Override
  public Set<String> getPropertyNames() {
    return properties.keySet();
  }

  @Override
  public Map<String, String> getProperties() {
    return properties;
  }

  @Override
  public String getValue(String propertyName) {
    return properties.get(propertyName);
  }

  @Override
  public String getName() {
    return "banhang-telemetry-switch";
  }

  @Override
  public int getOrdinal() {
    return ORDINAL;
  }
}
