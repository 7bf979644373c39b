package com.banhang.shop.admin.application;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The reader's buckets: 1 min over 1 h, 5 min over 6 h, 15 min over 24 h. */
class OverviewChartsTest {

  private static final Instant NOW = Instant.parse("2026-12-01T10:07:30Z");

  private static ConsoleMinute row(String at, String signal, String series, long reading) {
    return new ConsoleMinute(Instant.parse(at), signal, series, reading);
  }

  private static SignalChart chart(OverviewCharts charts, ConsoleSignal signal) {
    return charts.charts().stream().filter(c -> c.signal() == signal).findFirst().orElseThrow();
  }

  private static List<Long> line(SignalChart chart, String name) {
    return chart.series().stream()
        .filter(s -> s.name().equals(name))
        .findFirst()
        .orElseThrow()
        .values();
  }

  @Test
  void eachRange_endsWithTheBucketOfTheLastMinuteThatEnded_alignedToItsSize() {
    Instant[] hour = OperationsOverview.span(ChartRange.LAST_HOUR, NOW);
    assertThat(hour[1]).isEqualTo(Instant.parse("2026-12-01T10:07:00Z"));
    assertThat(hour[0]).isEqualTo(Instant.parse("2026-12-01T09:07:00Z"));

    Instant[] six = OperationsOverview.span(ChartRange.LAST_6_HOURS, NOW);
    assertThat(six[1]).isEqualTo(Instant.parse("2026-12-01T10:10:00Z"));
    assertThat(six[0]).isEqualTo(Instant.parse("2026-12-01T04:10:00Z"));

    Instant[] day = OperationsOverview.span(ChartRange.LAST_24_HOURS, NOW);
    assertThat(day[1]).isEqualTo(Instant.parse("2026-12-01T10:15:00Z"));
    assertThat(day[0]).isEqualTo(Instant.parse("2026-11-30T10:15:00Z"));

    assertThat(ChartRange.LAST_HOUR.points()).isEqualTo(60);
    assertThat(ChartRange.LAST_6_HOURS.points()).isEqualTo(72);
    assertThat(ChartRange.LAST_24_HOURS.points()).isEqualTo(96);
  }

  @Test
  void countersAreSummedPerBucket_gaugesTakeTheLargest_unsampledGaugesAreGaps() {
    Instant from = OperationsOverview.span(ChartRange.LAST_6_HOURS, NOW)[0]; // 04:10
    OverviewCharts charts =
        OperationsOverview.bucketed(
            ChartRange.LAST_6_HOURS,
            from,
            List.of(
                // One 5-minute bucket, 10:00-10:05: counters add, gauges keep the largest.
                row("2026-12-01T10:00:00Z", "reconciliation", "CAPTURED", 2),
                row("2026-12-01T10:04:00Z", "reconciliation", "CAPTURED", 3),
                row("2026-12-01T10:01:00Z", "stuck_rows", "payments.charge", 4),
                row("2026-12-01T10:03:00Z", "stuck_rows", "payments.charge", 9),
                row("2026-12-01T10:02:00Z", "oldest_age", "payments.charge", 725),
                // The next bucket, 10:05-10:10.
                row("2026-12-01T10:06:00Z", "reconciliation", "CAPTURED", 1),
                // Outside the range, or a signal this version does not chart: ignored.
                row("2026-12-01T04:09:00Z", "reconciliation", "CAPTURED", 100),
                row("2026-12-01T10:06:00Z", "something_else", "x", 100)));

    assertThat(charts.from()).isEqualTo(from);
    assertThat(charts.to()).isEqualTo(Instant.parse("2026-12-01T10:10:00Z"));
    assertThat(charts.charts())
        .extracting(SignalChart::signal)
        .containsExactly(ConsoleSignal.values());
    SignalChart reconciliation = chart(charts, ConsoleSignal.RECONCILIATION);
    assertThat(reconciliation.buckets()).hasSize(72);
    assertThat(reconciliation.bucket()).isEqualTo(Duration.ofMinutes(5));
    assertThat(reconciliation.buckets().get(70)).isEqualTo(Instant.parse("2026-12-01T10:00:00Z"));
    List<Long> captured = line(reconciliation, "CAPTURED");
    assertThat(captured.subList(69, 72)).containsExactly(0L, 5L, 1L);
    assertThat(captured.stream().mapToLong(Long::longValue).sum()).isEqualTo(6);

    List<Long> stuck = line(chart(charts, ConsoleSignal.STUCK_ROWS), "payments.charge");
    assertThat(stuck.get(70)).isEqualTo(9);
    assertThat(stuck.get(69)).isNull();
    assertThat(stuck.get(71)).isNull();
    // The age in whole minutes: 725 s.
    assertThat(line(chart(charts, ConsoleSignal.OLDEST_AGE), "payments.charge").get(70))
        .isEqualTo(12);
    // Known operations have a line from the start; gateway calls only once they failed.
    assertThat(chart(charts, ConsoleSignal.UNKNOWN_OUTCOMES).series())
        .extracting(SignalChart.Series::name)
        .containsExactly("orders.create", "payments.charge");
    assertThat(line(chart(charts, ConsoleSignal.UNKNOWN_OUTCOMES), "orders.create"))
        .hasSize(72)
        .containsOnly(0L);
    assertThat(chart(charts, ConsoleSignal.GATEWAY_ERRORS).series()).isEmpty();
  }

  @Test
  void aDayIsNinetySixQuarterHours_anHourSixtyMinutes() {
    Instant dayFrom = OperationsOverview.span(ChartRange.LAST_24_HOURS, NOW)[0];
    OverviewCharts day =
        OperationsOverview.bucketed(
            ChartRange.LAST_24_HOURS,
            dayFrom,
            List.of(
                row("2026-12-01T10:00:00Z", "gateway_errors", "charge", 1),
                row("2026-12-01T10:14:00Z", "gateway_errors", "charge", 1),
                row("2026-12-01T10:07:00Z", "gateway_errors", "findByKey", 4)));
    SignalChart errors = chart(day, ConsoleSignal.GATEWAY_ERRORS);
    assertThat(errors.buckets()).hasSize(96);
    assertThat(errors.buckets().get(95)).isEqualTo(Instant.parse("2026-12-01T10:00:00Z"));
    assertThat(line(errors, "charge").get(95)).isEqualTo(2);
    assertThat(line(errors, "findByKey").get(95)).isEqualTo(4);

    Instant hourFrom = OperationsOverview.span(ChartRange.LAST_HOUR, NOW)[0];
    OverviewCharts hour =
        OperationsOverview.bucketed(
            ChartRange.LAST_HOUR,
            hourFrom,
            List.of(row("2026-12-01T10:06:00Z", "gateway_errors", "charge", 3)));
    List<Long> charge = line(chart(hour, ConsoleSignal.GATEWAY_ERRORS), "charge");
    assertThat(charge).hasSize(60);
    assertThat(charge.get(59)).isEqualTo(3);
    assertThat(Arrays.asList(charge.subList(0, 59).toArray())).containsOnly(0L);
  }

  @Test
  void charts_readTheRangeFromTheTable_andReuseAReadForAFewSeconds() {
    OperationsOverview overview = new OperationsOverview();
    overview.minutes = mock(ConsoleMinutes.class);
    when(overview.minutes.read(any(), any())).thenReturn(List.of());
    overview.useClock(Clock.fixed(NOW, ZoneOffset.UTC));

    OverviewCharts first = overview.charts(ChartRange.LAST_HOUR);
    overview.charts(ChartRange.LAST_HOUR);
    verify(overview.minutes)
        .read(Instant.parse("2026-12-01T09:07:00Z"), Instant.parse("2026-12-01T10:07:00Z"));
    assertThat(first.range()).isEqualTo(ChartRange.LAST_HOUR);

    overview.charts(ChartRange.LAST_24_HOURS);
    overview.useClock(Clock.fixed(NOW.plus(OperationsOverview.CHARTS_MAX_AGE), ZoneOffset.UTC));
    overview.charts(ChartRange.LAST_HOUR);
    verify(overview.minutes, times(3)).read(any(), any());
  }
}
