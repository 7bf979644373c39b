package com.banhang.shop.web;

import com.banhang.idempotency.IdempotencyEvent;
import com.banhang.idempotency.IdempotencyKeys;
import com.banhang.idempotency.KeyStatistics;
import com.banhang.idempotency.PurgeRun;
import com.banhang.shop.web.metrics.KeyStatisticsCache;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToLongFunction;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.MetricUnits;
import org.eclipse.microprofile.metrics.Tag;
import org.eclipse.microprofile.metrics.Timer;

/**
 * The idempotency layer at /metrics (names as exported in Prometheus format; every series also
 * carries {@code mp_scope="application"}), described in docs/observability.md:
 *
 * <ul>
 *   <li>{@code idempotency_requests_total{operation,outcome}}: every keyed request by what the
 *       layer did (new, replayed, conflicting, in progress...);
 *   <li>{@code idempotency_claim_duration_seconds{operation}}: a histogram of the store's decision
 *       per request (the fast-path read plus the claim);
 *   <li>{@code idempotency_processing_rows}, {@code idempotency_processing_oldest_age_seconds} and
 *       {@code idempotency_leases_expired}, per operation: keys stuck in processing, from the key
 *       table's statistics, read at most once every few seconds ({@link KeyStatisticsCache});
 *   <li>{@code idempotency_purge_runs_total{started_by}} and {@code idempotency_purge_rows_total}:
 *       the retention purge; {@code idempotency_purge_partitions_dropped_total}: the expired
 *       partitions it dropped whole, where the key table is partitioned (its rows are counted in
 *       the rows too).
 * </ul>
 *
 * <p>Per-operation gauges exist for every operation with a configured TTL ({@code
 * idempotency.operations.<op>.ttl}) from the start, so that dashboards and alerts see a zero rather
 * than no series, and for any other operation as soon as this server sees a request for it or a row
 * of it in the table: an operation that only uses its annotation's TTL still gets its gauges.
 */
@ApplicationScoped
public class IdempotencyMetrics {

  static final String SCHEDULE = "schedule";
  static final String OPERATOR = "operator";

  private static final Metadata REQUESTS =
      Metadata.builder()
          .withName("idempotency.requests")
          .withDescription("Keyed requests by operation and by what the idempotency layer did")
          .build();

  private static final Metadata CLAIM_DURATION =
      Metadata.builder()
          .withName("idempotency.claim.duration")
          .withDescription(
              "Time the key store took to decide a keyed request (fast-path read and claim)")
          .withUnit(MetricUnits.NANOSECONDS)
          .build();

  private static final Metadata PROCESSING_ROWS =
      Metadata.builder()
          .withName("idempotency.processing.rows")
          .withDescription("Keys in processing (claimed, not yet completed or released)")
          .build();

  private static final Metadata OLDEST_AGE =
      Metadata.builder()
          .withName("idempotency.processing.oldest.age.seconds")
          .withDescription("Seconds since the oldest key in processing was claimed; 0 when none")
          .build();

  private static final Metadata EXPIRED_LEASES =
      Metadata.builder()
          .withName("idempotency.leases.expired")
          .withDescription("Keys in processing whose lease has run out (a crashed or lost attempt)")
          .build();

  private static final Metadata PURGE_RUNS =
      Metadata.builder()
          .withName("idempotency.purge.runs")
          .withDescription("Runs of the purge of expired keys, by who started them")
          .build();

  private static final Metadata PURGE_ROWS =
      Metadata.builder()
          .withName("idempotency.purge.rows")
          .withDescription("Expired keys deleted by purge runs")
          .build();

  private static final Metadata PURGE_PARTITIONS =
      Metadata.builder()
          .withName("idempotency.purge.partitions.dropped")
          .withDescription(
              "Expired partitions of the key table dropped whole by purge runs (their rows are"
                  + " counted in idempotency.purge.rows too)")
          .build();

  @Inject MetricRegistry registry;
  @Inject KeyStatisticsCache statistics;
  @Inject IdempotencyKeys keys;

  @Resource(lookup = "java:comp/DefaultManagedExecutorService")
  ManagedExecutorService executor;

  private final Set<String> operationsWithGauges = ConcurrentHashMap.newKeySet();

  // The series of every request, kept once found: the registry's lookup by name and tags (with
  // its checks of the tags) cost a keyed create more than the counting (docs/performance.md,
  // "Where a key's cost goes"). The registry lives as long as the application, so do they.
  private record RequestsSeries(String operation, IdempotencyEvent.Kind kind) {}

  private final Map<RequestsSeries, Counter> requests = new ConcurrentHashMap<>();
  private final Map<String, Timer> claimDurations = new ConcurrentHashMap<>();

  void registerAtStart(@Observes @Initialized(ApplicationScoped.class) Object started) {
    keys.configuredTtls().keySet().forEach(this::ensureGauges);
    registry.counter(PURGE_RUNS, new Tag("started_by", SCHEDULE));
    registry.counter(PURGE_RUNS, new Tag("started_by", OPERATOR));
    registry.counter(PURGE_ROWS);
  }

  void count(@Observes IdempotencyEvent event) {
    requests
        .computeIfAbsent(
            new RequestsSeries(event.operation(), event.kind()),
            series ->
                registry.counter(
                    REQUESTS,
                    new Tag("operation", series.operation()),
                    new Tag("outcome", series.kind().name().toLowerCase(Locale.ROOT))))
        .inc();
    if (event.claimTime() != null) {
      claimDurations
          .computeIfAbsent(
              event.operation(),
              operation -> registry.timer(CLAIM_DURATION, new Tag("operation", operation)))
          .update(event.claimTime());
    }
    ensureGauges(event.operation());
  }

  void countPurge(@Observes PurgeRun run) {
    String startedBy = SCHEDULE.equals(run.startedBy()) ? SCHEDULE : OPERATOR;
    registry.counter(PURGE_RUNS, new Tag("started_by", startedBy)).inc();
    registry.counter(PURGE_ROWS).inc(run.rowsDeleted());
    registry.counter(PURGE_PARTITIONS).inc(run.partitionsDropped());
  }

  private void ensureGauges(String operation) {
    if (!operationsWithGauges.add(operation)) {
      return;
    }
    Tag tag = new Tag("operation", operation);
    registry.gauge(PROCESSING_ROWS, operation, op -> read(s -> s.processing(op)), tag);
    registry.gauge(OLDEST_AGE, operation, op -> read(s -> oldestAgeSeconds(s, op)), tag);
    registry.gauge(
        EXPIRED_LEASES, operation, op -> read(s -> s.expiredLeases().getOrDefault(op, 0L)), tag);
  }

  private long read(ToLongFunction<KeyStatistics> value) {
    return statistics
        .current()
        .map(
            s -> {
              registerNewOperations(s);
              return value.applyAsLong(s);
            })
        .orElse(0L);
  }

  /**
   * Operations that have rows but no gauges yet (keys left from before a restart): registered off
   * the scrape's thread, so they appear from the next scrape on.
   */
  private void registerNewOperations(KeyStatistics s) {
    for (String operation : s.operations()) {
      if (!operationsWithGauges.contains(operation)) {
        executor.execute(() -> ensureGauges(operation));
      }
    }
  }

  private static long oldestAgeSeconds(KeyStatistics s, String operation) {
    Instant oldest = s.oldestProcessing(operation);
    if (oldest == null) {
      return 0L;
    }
    // Measured from when the statistics were taken, so it never runs ahead of the row count.
    return Math.max(0L, Duration.between(oldest, s.takenAt()).toSeconds());
  }
}
