package com.banhang.shop.admin.application;

import com.banhang.idempotency.IdempotencyKeys;
import com.banhang.idempotency.KeyStatistics;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Overview's figures, taken now: this node's last hour, the database's rows, and the charts of
 * every node's minutes ({@code console_minute}).
 */
@ApplicationScoped
public class OperationsOverview {

  /** The operations shown even before their first request. */
  static final List<String> KNOWN_OPERATIONS = List.of("orders.create", "payments.charge");

  @Inject IdempotencyKeys keys;
  @Inject OperationsTimeline timeline;
  @Inject LateCharges lateCharges;
  @Inject GatewayEventsIn gatewayEvents;
  @Inject ConsoleMinutes minutes;

  /**
   * How long a range's charts are reused: the rows change once a minute, and every open console
   * polls every 15 s, so without it each poll of each console would read up to a day of rows.
   */
  static final Duration CHARTS_MAX_AGE = Duration.ofSeconds(10);

  private record Read(Instant at, OverviewCharts charts) {}

  private final Map<ChartRange, Read> chartsRead = new ConcurrentHashMap<>();

  private Clock clock = Clock.systemUTC();

  /** The charts of {@code range}, all nodes, up to the last minute that ended. */
  public OverviewCharts charts(ChartRange range) {
    Instant now = clock.instant();
    Read last = chartsRead.get(range);
    if (last != null && !now.isBefore(last.at()) && now.isBefore(last.at().plus(CHARTS_MAX_AGE))) {
      return last.charts();
    }
    Instant[] span = span(range, now);
    OverviewCharts charts = bucketed(range, span[0], minutes.read(span[0], span[1]));
    chartsRead.put(range, new Read(now, charts));
    return charts;
  }

  /**
   * The first bucket's start and the last bucket's end: buckets are aligned to their size (5-minute
   * buckets start at :00, :05, ...), and the last one holds the last minute that ended.
   */
  static Instant[] span(ChartRange range, Instant now) {
    long size = range.bucket().toMinutes();
    long lastMinute = now.getEpochSecond() / 60 - 1;
    long lastBucket = Math.floorDiv(lastMinute, size) * size;
    Instant to = Instant.ofEpochSecond((lastBucket + size) * 60);
    return new Instant[] {to.minus(range.window()), to};
  }

  /**
   * The rows in buckets: counts summed, gauges the largest reading; the oldest age in whole
   * minutes. Every operation the shop knows has a line in the per-operation charts, so that a flat
   * zero shows the signal is watched; other series appear once they have a row in the range.
   */
  static OverviewCharts bucketed(ChartRange range, Instant from, List<ConsoleMinute> rows) {
    int points = range.points();
    long size = range.bucket().toMinutes();
    long firstMinute = from.getEpochSecond() / 60;
    List<Instant> buckets = new ArrayList<>();
    for (int i = 0; i < points; i++) {
      buckets.add(from.plus(range.bucket().multipliedBy(i)));
    }
    Map<ConsoleSignal, Map<String, Long[]>> values = new EnumMap<>(ConsoleSignal.class);
    for (ConsoleSignal signal : ConsoleSignal.values()) {
      Map<String, Long[]> series = new TreeMap<>();
      if (signal != ConsoleSignal.GATEWAY_ERRORS && signal != ConsoleSignal.RECONCILIATION) {
        KNOWN_OPERATIONS.forEach(operation -> series.put(operation, new Long[points]));
      }
      values.put(signal, series);
    }
    for (ConsoleMinute row : rows) {
      ConsoleSignal signal = ConsoleSignal.byId(row.signal());
      long index = Math.floorDiv(row.minute().getEpochSecond() / 60 - firstMinute, size);
      if (signal == null || index < 0 || index >= points) {
        continue;
      }
      Long[] line = values.get(signal).computeIfAbsent(row.series(), s -> new Long[points]);
      Long before = line[(int) index];
      line[(int) index] =
          before == null
              ? row.reading()
              : signal.gauge() ? Math.max(before, row.reading()) : before + row.reading();
    }
    List<SignalChart> charts = new ArrayList<>();
    for (ConsoleSignal signal : ConsoleSignal.values()) {
      List<SignalChart.Series> series = new ArrayList<>();
      values
          .get(signal)
          .forEach(
              (name, line) -> {
                List<Long> shownValues = new ArrayList<>(points);
                for (Long value : line) {
                  // A counter with no row counted nothing; a gauge with none was not sampled.
                  Long shown = value == null ? (signal.gauge() ? null : 0L) : value;
                  if (shown != null && signal == ConsoleSignal.OLDEST_AGE) {
                    shown = shown / 60;
                  }
                  shownValues.add(shown);
                }
                series.add(new SignalChart.Series(name, Collections.unmodifiableList(shownValues)));
              });
      charts.add(
          new SignalChart(signal, range.bucket(), List.copyOf(buckets), List.copyOf(series)));
    }
    return new OverviewCharts(range, from, from.plus(range.window()), List.copyOf(charts));
  }

  /** For tests: a clock to move. */
  void useClock(Clock clock) {
    this.clock = clock;
  }

  public OverviewSnapshot snapshot() {
    Map<Instant, Map<String, Long>> lastHour = timeline.lastHour();
    KeyStatistics statistics = keys.statistics();

    TreeSet<String> operations = new TreeSet<>(KNOWN_OPERATIONS);
    operations.addAll(statistics.operations());
    Map<String, Map<String, Long>> perOperation = new TreeMap<>();
    Map<String, Long> reconciliation = new TreeMap<>();
    long gatewayErrors = 0;
    List<OverviewSnapshot.MinutePoint> perMinute = new ArrayList<>();
    for (Map.Entry<Instant, Map<String, Long>> minute : lastHour.entrySet()) {
      Map<String, Long> minuteTotals = new LinkedHashMap<>();
      for (String series : seriesNames()) {
        minuteTotals.put(series, 0L);
      }
      for (Map.Entry<String, Long> count : minute.getValue().entrySet()) {
        String[] parts = count.getKey().split("\\|", 2);
        String source = parts[0];
        String series = parts[1];
        if (source.equals("reconciliation")) {
          reconciliation.merge(series, count.getValue(), Long::sum);
        } else if (source.equals("gateway")) {
          gatewayErrors += count.getValue();
          minuteTotals.merge(OperationsTimeline.GATEWAY_ERRORS, count.getValue(), Long::sum);
        } else {
          operations.add(source);
          perOperation
              .computeIfAbsent(source, o -> new TreeMap<>())
              .merge(series, count.getValue(), Long::sum);
          minuteTotals.merge(series, count.getValue(), Long::sum);
        }
      }
      perMinute.add(new OverviewSnapshot.MinutePoint(minute.getKey(), minuteTotals));
    }

    List<OverviewSnapshot.OperationCounts> counts = new ArrayList<>();
    Map<String, Map<String, Long>> processingByAge = new TreeMap<>();
    Map<String, Instant> oldest = new TreeMap<>();
    Map<String, Long> expired = new TreeMap<>();
    for (String operation : operations) {
      Map<String, Long> c = perOperation.getOrDefault(operation, Map.of());
      counts.add(
          new OverviewSnapshot.OperationCounts(
              operation,
              c.getOrDefault(OperationsTimeline.NEW, 0L),
              c.getOrDefault(OperationsTimeline.REPLAYED, 0L),
              c.getOrDefault(OperationsTimeline.IN_PROGRESS, 0L),
              c.getOrDefault(OperationsTimeline.MISMATCH, 0L),
              c.getOrDefault(OperationsTimeline.REJECTED, 0L),
              c.getOrDefault(OperationsTimeline.UNKNOWN_OUTCOME, 0L)));
      Map<String, Long> byAge = new LinkedHashMap<>();
      statistics.processingByAge(operation).forEach((b, n) -> byAge.put(b.label(), n));
      processingByAge.put(operation, byAge);
      Instant oldestProcessing = statistics.oldestProcessing(operation);
      if (oldestProcessing != null) {
        oldest.put(operation, oldestProcessing);
      }
      expired.put(operation, statistics.expiredLeases().getOrDefault(operation, 0L));
    }
    return new OverviewSnapshot(
        statistics.takenAt(),
        counts,
        processingByAge,
        oldest,
        expired,
        reconciliation,
        gatewayErrors,
        perMinute,
        lateCharges.countNeedingOperator(),
        gatewayEvents.countFlaggedUnhandled(),
        gatewayEvents.countParked());
  }

  /** Every series of the per-minute chart, in the order of its legend. */
  public static List<String> seriesNames() {
    return List.of(
        OperationsTimeline.NEW,
        OperationsTimeline.REPLAYED,
        OperationsTimeline.IN_PROGRESS,
        OperationsTimeline.MISMATCH,
        OperationsTimeline.REJECTED,
        OperationsTimeline.UNKNOWN_OUTCOME,
        OperationsTimeline.GATEWAY_ERRORS);
  }
}
