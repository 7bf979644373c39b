package com.banhang.idempotency.persistence;

import com.banhang.idempotency.ClaimedKey;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Where keys live. One implementation per database; all share the contract below, which the store
 * tests check on each of them.
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
   * Rows of {@code operation} in processing, claimed before {@code claimedBefore}, oldest first.
   */
  List<IdempotencyRecord> findProcessing(String operation, Instant claimedBefore, int limit);

  /**
   * Deletes at most {@code batchSize} completed or released rows past their expiry; never a
   * processing row.
   */
  int purgeExpired(int batchSize);
}
