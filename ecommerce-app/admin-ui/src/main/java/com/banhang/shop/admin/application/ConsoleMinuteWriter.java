package com.banhang.shop.admin.application;

import com.banhang.idempotency.IdempotencyKeys;
import com.banhang.idempotency.KeyStatistics;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Once a minute on every node (scheduled by shop-web's BackgroundJobs): writes this node's charted
 * counts of the minutes that ended into {@code console_minute}, samples the key table's gauges for
 * the minute that just ended, and deletes rows older than {@link #RETENTION}. A failure is logged
 * and the counts wait in {@link OperationsTimeline} for the next minute; nothing is thrown, since
 * the schedule must go on and no request waits on it.
 */
@ApplicationScoped
public class ConsoleMinuteWriter {

  private static final Logger LOG = Logger.getLogger(ConsoleMinuteWriter.class.getName());

  /** How long the charts' minutes are kept: the longest range shown (24 h) twice over. */
  public static final Duration RETENTION = Duration.ofHours(48);

  /**
   * Rows per delete and deletes per run: a minute adds a few dozen rows, so one run removes far
   * more than a minute brings, and a backlog (a schedule that was off) goes within minutes.
   */
  static final int DELETE_BATCH = 500;

  static final int MAX_DELETE_BATCHES = 20;

  @Inject OperationsTimeline timeline;
  @Inject ConsoleMinutes minutes;
  @Inject IdempotencyKeys keys;

  private Clock clock = Clock.systemUTC();

  /** The last write failed: the next failure is logged in one line. One run at a time writes it. */
  private volatile boolean failing;

  /** One run; never throws. */
  public void writeMinute() {
    Instant current = clock.instant().truncatedTo(ChronoUnit.MINUTES);
    Instant cutoff = current.minus(RETENTION);
    List<ConsoleMinute> counters = new ArrayList<>();
    int dropped = 0;
    for (ConsoleMinute row : timeline.drainBefore(current)) {
      // Counts held through a long outage past the retention would be deleted at once.
      if (row.minute().isBefore(cutoff)) {
        dropped++;
      } else {
        counters.add(row);
      }
    }
    if (dropped > 0) {
      int n = dropped;
      LOG.warning(() -> n + " console counts older than " + RETENTION + " were never written");
    }
    try {
      minutes.write(counters, gauges(current.minus(Duration.ofMinutes(1))));
      if (failing) {
        LOG.info("writing the console's minute works again");
        failing = false;
      }
    } catch (RuntimeException e) {
      timeline.putBack(counters);
      String message =
          "writing the console's minute failed; this node's counts are kept for the next minute";
      // The whole trace once per outage; one line a minute after it, so the log still says it.
      if (failing) {
        LOG.warning(() -> message + ": " + e.getMessage());
      } else {
        LOG.log(Level.WARNING, message, e);
      }
      failing = true;
    }
    try {
      minutes.deleteBefore(cutoff, DELETE_BATCH, MAX_DELETE_BATCHES);
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "deleting the console's minutes older than " + RETENTION, e);
    }
  }

  /**
   * Processing rows and the oldest one's age (seconds) per operation, as the key table says now:
   * the state at the end of {@code minute}. None when the table cannot be read: the charts then
   * show a gap, not a zero.
   */
  private List<ConsoleMinute> gauges(Instant minute) {
    KeyStatistics statistics;
    try {
      statistics = keys.statistics();
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "sampling the key table for the console's minute failed", e);
      return List.of();
    }
    TreeSet<String> operations = new TreeSet<>(OperationsOverview.KNOWN_OPERATIONS);
    operations.addAll(statistics.operations());
    List<ConsoleMinute> rows = new ArrayList<>();
    for (String operation : operations) {
      rows.add(
          new ConsoleMinute(
              minute, ConsoleSignal.STUCK_ROWS.id(), operation, statistics.processing(operation)));
      Instant oldest = statistics.oldestProcessing(operation);
      long age =
          oldest == null
              ? 0
              : Math.max(0, Duration.between(oldest, statistics.takenAt()).toSeconds());
      rows.add(new ConsoleMinute(minute, ConsoleSignal.OLDEST_AGE.id(), operation, age));
    }
    return rows;
  }

  /** For tests: a clock to move. */
  void useClock(Clock clock) {
    this.clock = clock;
  }
}
