package com.banhang.shop.admin.ui;

import static org.assertj.core.api.Assertions.assertThat;

import com.banhang.shop.admin.application.OverviewSnapshot.MinutePoint;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class SvgChartTest {

  @Test
  void onePolylinePerSeriesWithAxisLabelsAndALegend() {
    Instant start = Instant.parse("2026-01-01T10:00:00Z");
    List<MinutePoint> points =
        List.of(
            new MinutePoint(start, Map.of("new", 0L, "mismatch", 0L)),
            new MinutePoint(start.plusSeconds(60), Map.of("new", 12L, "mismatch", 3L)),
            new MinutePoint(start.plusSeconds(120), Map.of("new", 0L, "custom_series", 1L)));

    String svg = SvgChart.render(points);

    assertThat(Pattern.compile("<polyline ").matcher(svg).results().count()).isEqualTo(8);
    assertThat(svg)
        .contains(
            "data-series=\"custom_series\"",
            ">10:00</text>",
            ">10:02</text>",
            ">12</text>",
            ">9</text>")
        .contains(">mismatch</text>", ">minute (UTC)</text>");
    // The spike of 12 reaches the top line of the plot (y = 15); zero sits on the x-axis.
    assertThat(svg).contains("data-series=\"new\"").contains(",15.0 ").contains(",225.0");
  }

  @Test
  void theAxisStepsAreWholeNumbersEvenForTinyCounts() {
    String svg =
        SvgChart.render(List.of(new MinutePoint(Instant.parse("2026-01-01T10:00:00Z"), Map.of())));

    assertThat(svg).contains(">0</text>", ">1</text>", ">2</text>", ">3</text>", ">4</text>");
  }

  @Test
  void noDataStillDrawsAnEmptyChart() {
    String svg = SvgChart.render(List.of());

    assertThat(svg).startsWith("<svg").endsWith("</svg>").contains("no data yet");
  }

  @Test
  void namesAreEscaped() {
    assertThat(SvgChart.escape("<a & \"b\">")).isEqualTo("&lt;a &amp; &quot;b&quot;&gt;");
  }
}
