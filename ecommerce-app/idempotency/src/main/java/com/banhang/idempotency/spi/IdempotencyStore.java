package com.banhang.idempotency.spi;

import com.banhang.idempotency.ClaimedKey;
import com.banhang.idempotency.IdempotencyRecord;
import com.banhang.idempotency.KeyStatistics;
import com.banhang.idempotency.ProcessingPage;
import com.banhang.idempotency.ProcessingQuery;
import com.banhang.idempotency.PurgeRun;
import com.banhang.idempotency.StoredResponse;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Where keys live. One implementation per database; all share the contract below, which the store
 * tests check on each of them.
 *
 * <p>Every time decision is the database's (docs/idempotency.md, "Time"): callers pass durations,
 * never instants, and every timestamp the store writes, and every "now" it compares with, is the
 * database's clock, so that servers with skewed clocks decide alike. Rows read carry the database's
 * clock at the read ({@link IdempotencyRecord#readAt()}).
 *
 * <p>Every write after the claim is fenced: it applies only to a row in processing whose attempt
 * equals the caller's, and reports whether it applied.
 */
public interface IdempotencyStore {

  /**
   * Claims a key in a short transaction of its own, committed before this method returns. Exactly
   * one of any number of concurrent calls for a new key wins.
   */
  ClaimResult claim(ClaimRequest request);

  /**
   * Claims a key inside the caller's transaction, for an operation whose effects all commit in that
   * transaction ({@link com.banhang.idempotency.SideEffects#LOCAL}): a new key then costs one
   * commit, the business one. Nothing of the claim is visible to others before that commit; a
   * concurrent claim of the same key waits until the caller's transaction ends (at most {@code
   * lockWait}) and then sees its outcome: the completed row, or the key free again after a
   * rollback. The winner writes its row with {@link #completeInTransaction} before its transaction
   * commits; a rollback leaves nothing behind. Exactly one of any number of concurrent callers
   * wins.
   *
   * @throws KeyBusyException when the key stayed held longer than {@code lockWait}; the caller's
   *     transaction must then roll back
   */
  ClaimResult claimInTransaction(ClaimRequest request, Duration lockWait);

  /**
   * Writes a key won by {@link #claimInTransaction} (its {@code claim} record) as completed with
   * {@code response}, in the same transaction. Fenced like every write after a claim: the row must
   * still be as the claim found it.
   *
   * @return false if the row changed under the claim (nothing written); the caller rolls back
   */
  boolean completeInTransaction(IdempotencyRecord claim, StoredResponse response);

  /**
   * Marks the claim completed with its response, in the caller's transaction if one is active.
   *
   * @return false if the attempt no longer owns a processing row (nothing changed)
   */
  boolean complete(ClaimedKey claim, StoredResponse response);

  /**
   * Keeps the claim in processing but marks its outcome unknown, with the problem that retries are
   * given until reconciliation resolves it.
   */
  boolean markOutcomeUnknown(ClaimedKey claim, StoredResponse problemForRetries);

  /**
   * Ends the claim without effect so that the next request with the key runs as new (with a higher
   * attempt number).
   */
  boolean release(ClaimedKey claim);

  Optional<IdempotencyRecord> find(String tenant, String operation, String key);

  /**
   * Rows of {@code operation} in processing, claimed at least {@code minAge} ago by the database's
   * clock, oldest first.
   */
  default List<IdempotencyRecord> findProcessing(String operation, Duration minAge, int limit) {
    return findProcessing(operation, minAge, Set.of(), limit);
  }

  /**
   * Like {@link #findProcessing(String, Duration, int)}, skipping rows whose last check is one of
   * {@code skipChecks}: rows parked for an operator must not fill every batch a reader examines.
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

  /** Processing rows matching {@code query}, oldest first, one page of them. */
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
   * database's clock; never a processing row.
   */
  int purgeExpired(int batchSize);
}
