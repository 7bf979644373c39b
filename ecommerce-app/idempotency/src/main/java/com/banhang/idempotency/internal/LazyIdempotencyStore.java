package com.banhang.idempotency.internal;

import com.banhang.idempotency.ClaimedKey;
import com.banhang.idempotency.persistence.ClaimRequest;
import com.banhang.idempotency.persistence.ClaimResult;
import com.banhang.idempotency.persistence.IdempotencyRecord;
import com.banhang.idempotency.persistence.IdempotencyStore;
import com.banhang.idempotency.persistence.StoredResponse;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Finds the database on first use rather than at start-up, so that a database that is down when the
 * server starts makes requests fail closed (503) instead of the application failing to deploy.
 */
final class LazyIdempotencyStore implements IdempotencyStore {

  private final Supplier<IdempotencyStore> delegate;

  LazyIdempotencyStore(Supplier<IdempotencyStore> delegate) {
    this.delegate = delegate;
  }

  @Override
  public ClaimResult claim(ClaimRequest request) {
    return delegate.get().claim(request);
  }

  @Override
  public boolean complete(ClaimedKey claim, StoredResponse response) {
    return delegate.get().complete(claim, response);
  }

  @Override
  public boolean markOutcomeUnknown(ClaimedKey claim, StoredResponse problemForRetries) {
    return delegate.get().markOutcomeUnknown(claim, problemForRetries);
  }

  @Override
  public boolean release(ClaimedKey claim) {
    return delegate.get().release(claim);
  }

  @Override
  public Optional<IdempotencyRecord> find(String tenant, String operation, String key) {
    return delegate.get().find(tenant, operation, key);
  }

  @Override
  public List<IdempotencyRecord> findProcessing(
      String operation, Instant claimedBefore, int limit) {
    return delegate.get().findProcessing(operation, claimedBefore, limit);
  }

  @Override
  public int purgeExpired(int batchSize) {
    return delegate.get().purgeExpired(batchSize);
  }
}
