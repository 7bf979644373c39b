package com.banhang.idempotency.spi;

import com.banhang.idempotency.BodyResealBatch;
import com.banhang.idempotency.BodyResealRun;
import com.banhang.idempotency.ClaimedKey;
import com.banhang.idempotency.IdempotencyRecord;
import com.banhang.idempotency.KeyStatistics;
import com.banhang.idempotency.PartitionRetention;
import com.banhang.idempotency.ProcessingPage;
import com.banhang.idempotency.ProcessingQuery;
import com.banhang.idempotency.PurgeRun;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The keys outside any request, over the same table as the {@link IdempotencyStore} it belongs to:
 * what reconciliation (the processing rows and their last check), retention (the purge and its
 * runs) and operator consoles (pages, counts, the table's size) ask of a database. No request ever
 * calls it, so nothing here sits on a request's path, and a store's hot path can be read, wrapped
 * and tested without it.
 *
 * <p>The same rules as the store's hold: every age is a duration the database subtracts from its
 * own clock, and the one write of a row ({@link #recordCheck}) is fenced by the claim's attempt.
 */
public interface IdempotencyStoreAdministration {

  /**
   * Rows of {@code operation} in processing, claimed at least {@code minAge} ago by the database's
   * clock, least recently checked first: rows never checked, then by the time of their last check
   * ({@link #recordCheck}), then by claim time, oldest first. A reader that checks every row it
   * gets thus reaches every row in turn, even with a batch smaller than the rows whose check keeps
   * failing.
   */
  default List<IdempotencyRecord> findProcessing(String operation, Duration minAge, int limit) {
    return findProcessing(operation, minAge, Set.of(), limit);
  }

  /**
   * Like {@link #findProcessing(String, Duration, int)}, in the same order, skipping rows whose
   * last check is one of {@code skipChecks}: rows parked for an operator must not fill every batch
   * a reader examines.
   */
  List<IdempotencyRecord> findProcessing(
      String operation, Duration minAge, Set<String> skipChecks, int limit);

  /**
   * Records the last check of a processing row (what a reconciler found, and when), fenced like
   * every write after the claim.
   *
   * @return false if the attempt no longer owns a processing row (nothing changed)
   */
  boolean recordCheck(ClaimedKey claim, String check, String detail);

  /**
   * Processing rows matching {@code query}, oldest claim first whatever their checks (an operator's
   * list of stuck keys, by age), one page of them.
   */
  ProcessingPage listProcessing(ProcessingQuery query, int offset, int limit);

  /** Row counts by operation, status and age, now by the database's clock. */
  KeyStatistics statistics();

  /** Bytes the table and its indexes take, where the database reports it. */
  OptionalLong tableSizeBytes();

  void recordPurgeRun(PurgeRun run);

  /** The latest purge runs, newest first. */
  List<PurgeRun> recentPurgeRuns(int limit);

  /**
   * Deletes at most {@code batchSize} completed or released rows past their expiry by the
   * database's clock; never a processing row. On a key table partitioned by expiry day, only rows
   * that no partition drop will take: those of the default and legacy partitions ({@link
   * #retainByPartitions}).
   */
  int purgeExpired(int batchSize);

  /**
   * The retention's step by partition, where the key table is partitioned by expiry day (found at
   * every call, not configured): creates the partitions of the next {@code daysAhead} days, then
   * detaches and drops each partition whose range has ended, giving its processing rows back to the
   * table first, in the detach's transaction. A DDL statement that waits longer than {@code
   * lockWait} for its lock gives up, and the run leaves it to the next one. Safe on several nodes
   * at once: one of them does the work. {@link PartitionRetention#NOT_PARTITIONED} elsewhere.
   */
  default PartitionRetention retainByPartitions(int daysAhead, Duration lockWait) {
    return PartitionRetention.NOT_PARTITIONED;
  }

  /**
   * One batch of the re-seal after a body key rotation: reads at most {@code batchSize} rows whose
   * body is sealed with a key of the store's keyring other than its sealing key, opens and seals
   * each again with the sealing key, and writes them in one short transaction of its own. A write
   * applies only if the row still holds the bytes (and the attempt) the batch read, so that a row
   * completed, taken over or re-sealed meanwhile is never overwritten with an older body. A body
   * that does not open is left as it is. Without a key, or with the sealing key alone in the ring,
   * nothing is read.
   *
   * @return what the batch did, and how many rows remain with an old key after it
   */
  BodyResealBatch resealBodies(int batchSize);

  /** Rows whose body is sealed with a key of the store's keyring other than its sealing key. */
  long countBodiesWithOldKeys();

  void recordResealRun(BodyResealRun run);

  /** The latest re-seal runs, newest first. */
  List<BodyResealRun> recentResealRuns(int limit);
}
