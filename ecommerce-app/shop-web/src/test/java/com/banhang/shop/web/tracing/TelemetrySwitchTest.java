package com.banhang.shop.web.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class TelemetrySwitchTest {

  private static String disabled(Map<String, String> system) {
    return new TelemetrySwitch(system::get).getValue("otel.sdk.disabled");
  }

  @Test
  void withoutAnEndpoint_theSdkStaysOff() {
    assertThat(disabled(Map.of())).isEqualTo("true");
    assertThat(disabled(Map.of("otel.exporter.otlp.endpoint", " "))).isEqualTo("true");
    // Another exporter's setting alone sends nothing anywhere.
    assertThat(disabled(Map.of("otel.service.name", "shop"))).isEqualTo("true");
  }

  @Test
  void anEndpoint_asAPropertyOrInTheEnvironment_turnsItOn() {
    for (String name :
        new String[] {
          "otel.exporter.otlp.endpoint",
          "OTEL_EXPORTER_OTLP_ENDPOINT",
          "otel.exporter.otlp.traces.endpoint",
          "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"
        }) {
      assertThat(disabled(Map.of(name, "http://collector:4318"))).as(name).isEqualTo("false");
    }
  }

  @Test
  void itOnlyAnswersTheSwitch_belowEverySourceAnOperatorSets() {
    TelemetrySwitch source = new TelemetrySwitch(Map.<String, String>of()::get);
    assertThat(source.getPropertyNames()).containsExactly("otel.sdk.disabled");
    assertThat(source.getValue("otel.exporter.otlp.endpoint")).isNull();
    assertThat(source.getOrdinal()).isLessThan(100);
  }
}
