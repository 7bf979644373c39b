package com.banhang.idempotency;

import java.time.Instant;

/**
 * One run of the retention purge, kept so that operators see when and where purges ran.
 *
 * @param node the server that ran it
 * @param startedBy {@code schedule}, or the operator's name
 * @param rowsDeleted every row the run removed: deleted in batches, or dropped with a partition
 * @param method how: {@link #BATCHED} (DELETE in batches only) or {@link #PARTITIONS} (the key
 *     table is partitioned: expired days dropped whole, the rest in batches)
 * @param partitionsDropped expired partitions dropped by the run; 0 when batched
 */
public record PurgeRun(
    Instant startedAt,
    String node,
    String startedBy,
    int rowsDeleted,
    long durationMillis,
    String method,
    int partitionsDropped) {

  public static final String BATCHED = "BATCHED";
  public static final String PARTITIONS = "PARTITIONS";

  /** A run of the batched purge alone. */
  public PurgeRun(
      Instant startedAt, String node, String startedBy, int rowsDeleted, long durationMillis) {
    this(startedAt, node, startedBy, rowsDeleted, durationMillis, BATCHED, 0);
  }

  public PurgeRun {
    method = method == null ? BATCHED : method;
  }
}
