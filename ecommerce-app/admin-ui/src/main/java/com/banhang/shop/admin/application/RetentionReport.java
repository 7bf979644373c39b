package com.banhang.shop.admin.application;

import com.banhang.idempotency.BodyResealRun;
import com.banhang.idempotency.IdempotencyKeys;
import com.banhang.idempotency.KeyStatistics;
import com.banhang.idempotency.PurgeRun;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The Retention view's figures: TTLs, rows by status and age, table size, recent purges. */
@ApplicationScoped
public class RetentionReport {

  /** How many purge runs the view lists. */
  static final int PURGE_RUNS_SHOWN = 20;

  /** How many re-seal runs the view lists. */
  static final int RESEAL_RUNS_SHOWN = 10;

  @Inject IdempotencyKeys keys;

  public RetentionSummary summary() {
    KeyStatistics statistics = keys.statistics();
    List<RetentionSummary.AgeBucketCount> buckets =
        statistics.buckets().stream()
            .map(
                b ->
                    new RetentionSummary.AgeBucketCount(
                        b.operation(), b.status().name(), b.bucket().label(), b.rows()))
            .toList();
    Map<String, Instant> oldest = new TreeMap<>();
    for (KeyStatistics.StatusGroup group : statistics.groups()) {
      oldest.merge(group.status().name(), group.oldest(), (a, b) -> a.isBefore(b) ? a : b);
    }
    List<RetentionSummary.PurgeRunView> runs =
        keys.recentPurgeRuns(PURGE_RUNS_SHOWN).stream().map(RetentionReport::view).toList();
    return new RetentionSummary(
        keys.configuredTtls(), buckets, oldest, keys.tableSizeBytes(), runs);
  }

  /** Rows still sealed with an old body key, and the latest re-seal runs. */
  public BodyKeysSummary bodyKeys() {
    return new BodyKeysSummary(
        keys.bodiesWithOldKeys(),
        keys.recentResealRuns(RESEAL_RUNS_SHOWN).stream().map(RetentionReport::view).toList());
  }

  private static BodyKeysSummary.ResealRunView view(BodyResealRun run) {
    return new BodyKeysSummary.ResealRunView(
        run.startedAt(),
        run.node(),
        run.startedBy(),
        run.fromKeyIdsText(),
        run.toKeyId(),
        run.rowsResealed(),
        run.rowsRemaining(),
        run.status().name(),
        run.detail(),
        run.durationMillis());
  }

  private static RetentionSummary.PurgeRunView view(PurgeRun run) {
    return new RetentionSummary.PurgeRunView(
        run.startedAt(),
        run.node(),
        run.startedBy(),
        run.rowsDeleted(),
        run.durationMillis(),
        run.method(),
        run.partitionsDropped());
  }
}
