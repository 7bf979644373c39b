package com.banhang.shop.admin.ui;

import static com.github.mvysny.kaributesting.v10.LocatorJ._find;
import static com.github.mvysny.kaributesting.v10.LocatorJ._get;
import static com.github.mvysny.kaributesting.v10.LocatorJ._setValue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import com.banhang.shop.admin.application.ChartRange;
import com.banhang.shop.admin.application.ConsoleSignal;
import com.banhang.shop.admin.application.OverviewCharts;
import com.banhang.shop.admin.application.SignalChart;
import com.vaadin.flow.component.Html;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.radiobutton.RadioButtonGroup;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Overview's charts of every node's minutes: the range switch and one chart per signal. */
class OverviewChartsViewTest extends ConsoleTestBase {

  private static final Instant TO = Instant.now().truncatedTo(ChronoUnit.HOURS);

  @BeforeEach
  void operator() {
    loginAs("operator");
  }

  /** Charts of {@code range} where payments.charge has {@code peak} in the last bucket. */
  private static OverviewCharts charts(ChartRange range, long peak) {
    int n = range.points();
    Instant from = TO.minus(range.window());
    List<Instant> buckets = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      buckets.add(from.plus(range.bucket().multipliedBy(i)));
    }
    List<SignalChart> charts = new ArrayList<>();
    for (ConsoleSignal signal : ConsoleSignal.values()) {
      List<Long> quiet = new ArrayList<>();
      List<Long> loud = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        quiet.add(0L);
        loud.add(i == n - 1 ? peak : 1L);
      }
      charts.add(
          new SignalChart(
              signal,
              range.bucket(),
              buckets,
              List.of(
                  new SignalChart.Series("orders.create", quiet),
                  new SignalChart.Series("payments.charge", loud))));
    }
    return new OverviewCharts(range, from, TO, charts);
  }

  private static String chartOf(ConsoleSignal signal) {
    return _get(Html.class, s -> s.withId("overview-chart-box-" + signal.id())).getInnerHtml();
  }

  @Test
  void oneChartPerSignal_eachWithItsTitleAxisLabelsLegendMarkersAndHoverValues() {
    when(overview.charts(ChartRange.LAST_HOUR)).thenReturn(charts(ChartRange.LAST_HOUR, 12));
    navigate(OverviewView.class);

    for (ConsoleSignal signal : ConsoleSignal.values()) {
      String svg = chartOf(signal);
      assertThat(svg)
          .as(signal.id())
          .contains("id=\"overview-chart-" + signal.id() + "\"")
          .contains("<title>" + SvgChart.title(signal) + ", per minute, all nodes (UTC)</title>")
          .contains(">time (UTC)</text>")
          .contains("data-marker=\"circle\"", "data-marker=\"square\"")
          .contains(
              ">payments.charge: last 12, max 12</text>", ">orders.create: last 0, max 0</text>")
          // Each chart its own scale: the peak of 12 is the top line.
          .contains(">12</text>");
    }
    assertThat(chartOf(ConsoleSignal.STUCK_ROWS)).contains(">rows</text>");
    assertThat(chartOf(ConsoleSignal.RECONCILIATION)).contains(">keys examined / min</text>");
    assertThat(_get(Span.class, s -> s.withId("overview-charts-note")).getText())
        .startsWith("last 1 h, ")
        .endsWith("one point per 1 min");
    assertThat(_get(Button.class, s -> s.withId("refresh-button"))).isNotNull();
  }

  @Test
  @SuppressWarnings("unchecked")
  void theRangeSwitch_readsSixOrTwentyFourHours_inTheirBuckets() {
    when(overview.charts(ChartRange.LAST_HOUR)).thenReturn(charts(ChartRange.LAST_HOUR, 1));
    when(overview.charts(ChartRange.LAST_6_HOURS)).thenReturn(charts(ChartRange.LAST_6_HOURS, 40));
    when(overview.charts(ChartRange.LAST_24_HOURS))
        .thenReturn(charts(ChartRange.LAST_24_HOURS, 300));
    navigate(OverviewView.class);
    RadioButtonGroup<ChartRange> range =
        _get(RadioButtonGroup.class, s -> s.withId("overview-range"));
    assertThat(range.getValue()).isEqualTo(ChartRange.LAST_HOUR);

    _setValue(range, ChartRange.LAST_6_HOURS);
    verify(overview).charts(ChartRange.LAST_6_HOURS);
    assertThat(chartOf(ConsoleSignal.GATEWAY_ERRORS))
        .contains("per 5 minutes", ">failed calls / 5 min</text>", ">40</text>");
    assertThat(_find(Html.class, s -> s.withId("overview-chart-box-gateway_errors"))).hasSize(1);

    _setValue(range, ChartRange.LAST_24_HOURS);
    assertThat(chartOf(ConsoleSignal.OLDEST_AGE))
        .contains("per 15 minutes", ">minutes (largest in 15 min)</text>", ">300</text>");
    assertThat(_get(Span.class, s -> s.withId("overview-charts-note")).getText())
        .startsWith("last 24 h, ");

    // The refresh keeps the chosen range.
    org.mockito.Mockito.clearInvocations(overview);
    com.github.mvysny.kaributesting.v10.LocatorJ._click(
        _get(Button.class, s -> s.withId("refresh-button")));
    verify(overview).charts(ChartRange.LAST_24_HOURS);
    verify(overview, org.mockito.Mockito.never()).charts(ChartRange.LAST_HOUR);
  }

  @Test
  void unreadableMinutes_leaveANote_andTheRestOfTheOverviewStands() {
    when(overview.charts(any())).thenThrow(new IllegalStateException("database away"));
    navigate(OverviewView.class);

    assertThat(notificationTexts())
        .contains("Overview charts failed: IllegalStateException (database away)");
    assertThat(_get(Span.class, s -> s.withId("overview-charts-note")).getText())
        .contains("could not be read");
    assertThat(_find(Html.class, s -> s.withId("overview-chart-box-stuck_rows"))).isEmpty();
    assertThat(_get(RadioButtonGroup.class, s -> s.withId("overview-range"))).isNotNull();
  }
}
