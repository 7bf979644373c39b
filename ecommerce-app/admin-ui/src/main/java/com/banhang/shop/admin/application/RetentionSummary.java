package com.banhang.shop.admin.application;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/** What the Retention view shows. */
public record RetentionSummary(
    Map<String, Duration> ttlPerOperation,
    List<AgeBucketCount> rowsByStatusAndAge,
    Map<String, Instant> oldestPerStatus,
    OptionalLong tableSizeBytes,
    List<PurgeRunView> lastPurgeRuns) {

  /** Rows of one operation and status in one age bucket (bucket labels such as "1-5 min"). */
  public record AgeBucketCount(String operation, String status, String ageBucket, long rows) {}

  /**
   * One purge run, on whichever node ran it: how many rows went, and how ({@code BATCHED}, or
   * {@code PARTITIONS} with the expired partitions it dropped whole).
   */
  public record PurgeRunView(
      Instant startedAt,
      String node,
      String startedBy,
      int rowsDeleted,
      long durationMillis,
      String method,
      int partitionsDropped) {

    /** A run of the batched purge alone. */
    public PurgeRunView(
        Instant startedAt, String node, String startedBy, int rowsDeleted, long durationMillis) {
      this(startedAt, node, startedBy, rowsDeleted, durationMillis, "BATCHED", 0);
    }
  }
}
