package com.banhang.idempotency;

import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Keys outside a request: what reconciliation, retention and the operator console need.
 *
 * <p>Every write is fenced by the attempt in the {@link ClaimedKey}: it applies only while that
 * attempt still owns a key in processing.
 *
 * <p>The library implements it as an application-scoped CDI bean: inject it.
 */
public interface IdempotencyKeys {

  /**
   * Completes a claimed key with the response its client should be given, in the caller's JTA
   * transaction (or in a transaction of its own when none is active).
   *
   * @return the stored response
   * @throws ClaimLostException when the attempt no longer owns the key
   */
  StoredResponse complete(ClaimedKey claim, Response response);

  /**
   * Releases a claim whose operation certainly had no effect, so that the client's next retry runs
   * as new (under a higher attempt number).
   *
   * @return false when the attempt no longer owns the key (nothing was changed)
   */
  boolean release(ClaimedKey claim);

  /** The key's record, whatever its state. */
  Optional<IdempotencyRecord> find(String tenant, String operation, String key);

  /**
   * Keys of {@code operation} still processing that were claimed more than {@code age} ago, by the
   * database's clock, least recently checked first: keys never checked, then by the time of their
   * last check, then by claim time, oldest first (so that keys whose check keeps failing cannot
   * fill every batch).
   */
  List<IdempotencyRecord> findProcessing(String operation, Duration age, int limit);

  /**
   * Keys of {@code operation} still processing that were claimed more than {@code age} ago by the
   * database's clock, in the order above, without those whose last check is one of {@code
   * skipChecks} (keys parked for an operator, which must not fill every batch).
   */
  List<IdempotencyRecord> findProcessing(
      String operation, Duration age, Set<String> skipChecks, int limit);

  /**
   * Notes on a processing key what its last check found (for payments: the reconciliation finding),
   * so that operators see it and readers can skip it. Fenced by the claim's attempt.
   *
   * @return false when the attempt no longer owns the key (nothing changed)
   */
  boolean recordCheck(ClaimedKey claim, String check, String detail);

  /** Processing keys matching {@code query}, oldest first, one page. */
  ProcessingPage listProcessing(ProcessingQuery query, int offset, int limit);

  /** Keys by operation, status and age, now by the database's clock. */
  KeyStatistics statistics();

  /** Bytes the key table takes, where the database reports it. */
  OptionalLong tableSizeBytes();

  /** The time-to-live of each operation that has one configured or used so far. */
  Map<String, Duration> configuredTtls();

  void recordPurgeRun(PurgeRun run);

  /** The latest purge runs on any node, newest first. */
  List<PurgeRun> recentPurgeRuns(int limit);

  /**
   * One purge run: deletes finished keys past their expiry in bounded batches, with the configured
   * pause between two, until a batch comes back short (or the configured number of batches ran),
   * never a processing key; records the run (when, on which node, by whom, rows, duration) and
   * announces it as a CDI event so that metrics can count it. A retry after expiry is a new
   * request.
   *
   * @param startedBy {@code schedule}, or the operator's name
   */
  PurgeRun purgeExpiredNow(String startedBy);

  /** Deletes up to {@code batchSize} finished keys past their expiry; never a processing one. */
  int purgeExpired(int batchSize);

  /**
   * One re-seal run (docs/idempotency.md, "Rotating a key"): re-encrypts, with the keyring's
   * current key, the stored bodies still sealed with another key of the ring, in bounded batches
   * (each its own short transaction, with the configured pause between two) until none remain, a
   * batch makes no progress, or the configured number of batches ran. A row that changed after a
   * batch read it is left as its writer left it. Records the run (when, on which node, by whom,
   * rows, from which key ids to which, how it ended), a failed one too, which then throws on.
   *
   * @param startedBy the operator's name, or what started it
   */
  BodyResealRun resealBodiesNow(String startedBy);

  /** Rows whose body is sealed with a key of the ring other than the current one. */
  long bodiesWithOldKeys();

  /** The latest re-seal runs on any node, newest first. */
  List<BodyResealRun> recentResealRuns(int limit);
}
