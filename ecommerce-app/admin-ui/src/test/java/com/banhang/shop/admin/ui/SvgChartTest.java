package com.banhang.shop.admin.ui;

import static org.assertj.core.api.Assertions.assertThat;

import com.banhang.shop.admin.application.ConsoleSignal;
import com.banhang.shop.admin.application.OverviewSnapshot.MinutePoint;
import com.banhang.shop.admin.application.SignalChart;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The charts are drawn with the console's texts, so they run in Karibu's Vaadin (ConsoleTestBase).
 */
class SvgChartTest extends ConsoleTestBase {

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

  // --- One signal's chart

  private static final Instant H = Instant.parse("2026-01-01T10:00:00Z");

  private static SignalChart signal(
      ConsoleSignal signal, Duration bucket, int points, SignalChart.Series... series) {
    List<Instant> buckets = new ArrayList<>();
    for (int i = 0; i < points; i++) {
      buckets.add(H.plus(bucket.multipliedBy(i)));
    }
    return new SignalChart(signal, bucket, buckets, List.of(series));
  }

  private static long count(String svg, String regex) {
    return Pattern.compile(regex).matcher(svg).results().count();
  }

  @Test
  void aSignalChart_hasItsOwnScale_axisLabels_andATitlePerPoint() {
    String svg =
        SvgChart.render(
            signal(
                ConsoleSignal.GATEWAY_ERRORS,
                Duration.ofMinutes(1),
                3,
                new SignalChart.Series("charge", List.of(0L, 7L, 2L)),
                new SignalChart.Series("findByKey", List.of(1L, 0L, 0L))));

    assertThat(svg)
        .startsWith("<svg")
        .endsWith("</svg>")
        .contains("id=\"overview-chart-gateway_errors\"")
        .contains("<title>Gateway errors per call, per minute, all nodes (UTC)</title>")
        // Its own scale: the peak of 7 rounds up to 8, in four whole steps.
        .contains(">8</text>", ">6</text>", ">2</text>")
        .contains(">failed calls / min</text>", ">time (UTC)</text>", ">10:00</text>")
        // Hover values: each point's own, and every series at once per time.
        .contains("<title>charge, 10:01 UTC: 7</title>")
        .contains("<title>findByKey, 10:00 UTC: 1</title>")
        .contains("<title>10:01 UTC, charge 7, findByKey 0</title>")
        // The legend says each series' figures in text.
        .contains(">charge: last 2, max 7</text>", ">findByKey: last 0, max 1</text>");
    assertThat(count(svg, "class=\"marker marker-")).isEqualTo(6 + 2);
  }

  @Test
  void eachSeries_hasItsOwnMarkerShapeAndDashPattern_notOnlyAColour() {
    List<SignalChart.Series> series = new ArrayList<>();
    for (int i = 0; i < SvgChart.MARKERS.size(); i++) {
      series.add(new SignalChart.Series("finding" + i, List.of((long) i, 1L)));
    }
    String svg =
        SvgChart.render(
            new SignalChart(
                ConsoleSignal.RECONCILIATION,
                Duration.ofMinutes(1),
                List.of(H, H.plusSeconds(60)),
                series));

    List<String> markers = new ArrayList<>();
    List<String> dashes = new ArrayList<>();
    var group =
        Pattern.compile(
                "<g data-series=\"(finding\\d)\" data-marker=\"([a-z-]+)\">"
                    + "<path fill=\"none\" stroke-width=\"2\" stroke=\"#[0-9a-f]{6}\""
                    + "( stroke-dasharray=\"([0-9 ]+)\")?")
            .matcher(svg);
    while (group.find()) {
      markers.add(group.group(2));
      dashes.add(String.valueOf(group.group(4)));
    }
    assertThat(markers).hasSize(8).doesNotHaveDuplicates();
    assertThat(dashes).hasSize(8).doesNotHaveDuplicates();
    for (String shape : markers) {
      // Each shape is drawn on the lines and again in the legend beside the name.
      assertThat(svg).contains("marker-" + shape + "\"");
    }
    assertThat(svg).contains(">finding7: last 1, max 7</text>");
  }

  @Test
  void aGaugeWithoutASample_isAGap_andItsAxisSaysItIsTheLargestReading() {
    String svg =
        SvgChart.render(
            signal(
                ConsoleSignal.STUCK_ROWS,
                Duration.ofMinutes(15),
                4,
                new SignalChart.Series("payments.charge", Arrays.asList(3L, null, 5L, 6L))));

    assertThat(svg)
        .contains(">rows (largest in 15 min)</text>")
        .contains("<title>payments.charge, 10:30-10:45 UTC: 5</title>")
        .contains("<title>10:15-10:30 UTC, payments.charge no sample</title>")
        .doesNotContain("10:15-10:30 UTC: ");
    // The line lifts its pen over the gap: two pieces, one "M" each.
    String d =
        svg.replaceAll(
            "(?s).*<g data-series=\"payments.charge\"[^>]*><path[^>]* d=\"([^\"]+)\".*", "$1");
    assertThat(count(d, "M")).isEqualTo(2);
  }

  @Test
  void aSignalWithNoSeries_saysSo() {
    String svg = SvgChart.render(signal(ConsoleSignal.GATEWAY_ERRORS, Duration.ofMinutes(5), 72));

    assertThat(svg)
        .contains("none in this range", "<desc>No failed calls in this range.</desc>")
        .contains(">failed calls / 5 min</text>");
    assertThat(svg).doesNotContain("marker-");
  }

  @Test
  void seriesNamesAreEscapedInTitlesAndLegends() {
    String svg =
        SvgChart.render(
            signal(
                ConsoleSignal.UNKNOWN_OUTCOMES,
                Duration.ofMinutes(1),
                1,
                new SignalChart.Series("<op&\"x\">", List.of(1L))));

    assertThat(svg).doesNotContain("<op&").contains("&lt;op&amp;&quot;x&quot;&gt;");
  }
}
