package com.banhang.idempotency.spi;

import com.banhang.idempotency.ClaimedKey;
import com.banhang.idempotency.IdempotencyRecord;
import com.banhang.idempotency.StoredResponse;
import java.time.Duration;
import java.util.Optional;

/**
 * Where keys live, as a request uses them: the claim, the writes of its owner, and the read of one
 * key. One implementation per database; all share the contract below, which the store tests check
 * on each of them. What reconciliation, retention and operator consoles do with keys outside a
 * request is {@link IdempotencyStoreAdministration}'s, so that this interface stays the few calls a
 * keyed request makes, and a wrapper or a test double of the request's path needs nothing else.
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
   * What a request asks of the store when it presents a key.
   *
   * @param fingerprint the request's fingerprint: a retry whose fingerprint differs is a reuse of
   *     the key for another request
   * @param lease how long the winner owns the key before a retry may take it over
   * @param ttl how long the key stays bound to its first result
   * @param takeoverAllowed whether an expired lease may be taken over: only when an abandoned
   *     attempt is known to have had no effect (local operations)
   */
  record ClaimRequest(
      String tenant,
      String operation,
      String key,
      String fingerprint,
      Duration lease,
      Duration ttl,
      boolean takeoverAllowed) {}

  /**
   * The answer of one claim: the row as the database holds it after the call, and whether this call
   * became its owner (a new key, a takeover of an expired lease, or a reuse of an expired key).
   */
  record ClaimResult(boolean won, IdempotencyRecord record) {}
}
