package com.banhang.idempotency;

import java.util.List;

/**
 * What the retention did by partition in one run (docs/scaling.md, "Retention by partition"): on a
 * key table partitioned by expiry day, whole expired days are detached and dropped instead of
 * deleted row by row, and the days ahead are created before rows arrive.
 *
 * @param partitioned whether the table is partitioned; when not, the other figures are 0 and the
 *     batched purge does all the work
 * @param partitionsCreated day partitions created ahead
 * @param partitionsDropped expired partitions detached and dropped
 * @param rowsDropped the finished (completed, released) rows those partitions held
 * @param processingKept processing rows of those partitions, given back to the table (they land in
 *     its default partition) and never dropped
 * @param skipped what was left to a later run, and why (another node held the maintenance, a lock
 *     was not had in time, the default partition holds rows of a day)
 */
public record PartitionRetention(
    boolean partitioned,
    int partitionsCreated,
    int partitionsDropped,
    long rowsDropped,
    long processingKept,
    List<String> skipped) {

  /** The table is not partitioned (H2, SQL Server or PostgreSQL without it): batches only. */
  public static final PartitionRetention NOT_PARTITIONED =
      new PartitionRetention(false, 0, 0, 0, 0, List.of());

  public PartitionRetention {
    skipped = List.copyOf(skipped);
  }
}
