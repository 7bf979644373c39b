package com.banhang.shop.admin.application;

import com.banhang.idempotency.IdempotencyEvent;
import com.banhang.shop.payments.api.GatewayCallFailed;
import com.banhang.shop.payments.api.ReconciliationChecked;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * What this node answered, per minute, for the last hour: keyed requests by operation and kind,
 * reconciliation findings and gateway errors. Held in memory (an hour of minutes is small); each
 * node has its own, and /metrics has the same counts for a scraper that sums nodes.
 *
 * <p>It is also the node's buffer of the Overview's charted counters (unknown outcomes per
 * operation, gateway errors per call, reconciliation findings): {@link ConsoleMinuteWriter} drains
 * the minutes that ended into {@code console_minute}, where all nodes add up, and puts them back
 * when the write fails, so that no count is lost while the database is away.
 */
@ApplicationScoped
public class OperationsTimeline {

  /** How far back the timeline goes. */
  public static final Duration WINDOW = Duration.ofHours(1);

  static final String NEW = "new";
  static final String REPLAYED = "replayed";
  static final String IN_PROGRESS = "in_progress";
  static final String MISMATCH = "mismatch";
  static final String REJECTED = "rejected";
  static final String UNKNOWN_OUTCOME = "unknown_outcome";
  static final String GATEWAY_ERRORS = "gateway_errors";

  /**
   * Minute -> series (e.g. {@code orders.create|new}, {@code reconciliation|CAPTURED}) -> count.
   */
  private final NavigableMap<Instant, Map<String, LongAdder>> minutes =
      new ConcurrentSkipListMap<>();

  /**
   * Charted counts not yet written, minute -> (signal, series) -> count. A ConcurrentHashMap, whose
   * compute and remove of one minute exclude each other: a count that lands after its minute was
   * drained starts a new entry that the next drain takes, rather than being added to a map already
   * written. These events are rare (failures and reconciliation), so the lock costs nothing.
   */
  private final ConcurrentHashMap<Instant, Map<Charted, Long>> unwritten =
      new ConcurrentHashMap<>();

  private record Charted(ConsoleSignal signal, String series) {}

  private Clock clock = Clock.systemUTC();

  void onKeyedRequest(@Observes IdempotencyEvent event) {
    String series = seriesOf(event.kind());
    if (series != null) {
      add(event.operation() + "|" + series);
    }
    if (UNKNOWN_OUTCOME.equals(series)) {
      chart(ConsoleSignal.UNKNOWN_OUTCOMES, event.operation());
    }
  }

  void onReconciliation(@Observes ReconciliationChecked checked) {
    add("reconciliation|" + checked.finding().name());
    chart(ConsoleSignal.RECONCILIATION, checked.finding().name());
  }

  void onGatewayError(@Observes GatewayCallFailed failed) {
    add("gateway|" + GATEWAY_ERRORS);
    chart(ConsoleSignal.GATEWAY_ERRORS, failed.call());
  }

  private void chart(ConsoleSignal signal, String series) {
    // The column holds 100 characters; operation names and calls are far shorter.
    String name = series == null ? "unnamed" : series.substring(0, Math.min(100, series.length()));
    add(clock.instant().truncatedTo(ChronoUnit.MINUTES), new Charted(signal, name), 1);
  }

  private void add(Instant minute, Charted charted, long count) {
    unwritten.compute(
        minute,
        (m, counts) -> {
          Map<Charted, Long> c = counts == null ? new HashMap<>() : counts;
          c.merge(charted, count, Long::sum);
          return c;
        });
  }

  /**
   * Takes the charted counts of the minutes before {@code minute} out of the buffer, oldest first:
   * the caller writes them, or gives them back with {@link #putBack}.
   */
  public List<ConsoleMinute> drainBefore(Instant minute) {
    List<ConsoleMinute> rows = new ArrayList<>();
    for (Instant m : new TreeSet<>(unwritten.keySet())) {
      if (m.isBefore(minute)) {
        Map<Charted, Long> counts = unwritten.remove(m);
        if (counts != null) {
          counts.forEach(
              (charted, n) ->
                  rows.add(new ConsoleMinute(m, charted.signal().id(), charted.series(), n)));
        }
      }
    }
    return rows;
  }

  /** Puts back counts a failed write took, to be written with the next minute's. */
  public void putBack(List<ConsoleMinute> rows) {
    for (ConsoleMinute row : rows) {
      ConsoleSignal signal = ConsoleSignal.byId(row.signal());
      if (signal != null) {
        add(row.minute(), new Charted(signal, row.series()), row.reading());
      }
    }
  }

  /** The event kind a series counts, or null for events that are not an answer. */
  static String seriesOf(IdempotencyEvent.Kind kind) {
    return switch (kind) {
      case CLAIMED -> NEW;
      case REPLAYED -> REPLAYED;
      case IN_PROGRESS -> IN_PROGRESS;
      case KEY_REUSED -> MISMATCH;
      case REJECTED -> REJECTED;
      case OUTCOME_UNKNOWN, MARKED_UNKNOWN -> UNKNOWN_OUTCOME;
      default -> null;
    };
  }

  void add(String series) {
    Instant minute = clock.instant().truncatedTo(ChronoUnit.MINUTES);
    Map<String, LongAdder> counts = minutes.get(minute);
    if (counts == null) {
      // Once a minute, not on every request: a new minute drops the ones that left the window.
      counts = minutes.computeIfAbsent(minute, m -> new ConcurrentHashMap<>());
      minutes.headMap(minute.minus(WINDOW), true).clear();
    }
    counts.computeIfAbsent(series, s -> new LongAdder()).increment();
  }

  /**
   * The last 60 minutes, oldest first, every minute present (zero counts included), each with its
   * series and counts.
   */
  public Map<Instant, Map<String, Long>> lastHour() {
    Instant now = clock.instant().truncatedTo(ChronoUnit.MINUTES);
    Map<Instant, Map<String, Long>> result = new LinkedHashMap<>();
    for (long m = WINDOW.toMinutes() - 1; m >= 0; m--) {
      Instant minute = now.minus(Duration.ofMinutes(m));
      Map<String, Long> counts = new LinkedHashMap<>();
      Map<String, LongAdder> recorded = minutes.get(minute);
      if (recorded != null) {
        recorded.forEach((series, count) -> counts.put(series, count.sum()));
      }
      result.put(minute, counts);
    }
    return result;
  }

  /** For tests: a clock to move. */
  void useClock(Clock clock) {
    this.clock = clock;
  }
}
