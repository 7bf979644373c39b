package com.banhang.idempotency;

import com.banhang.idempotency.internal.IdempotencySettings;
import com.banhang.idempotency.internal.StoredResponses;
import com.banhang.idempotency.persistence.IdempotencyRecord;
import com.banhang.idempotency.persistence.IdempotencyStore;
import com.banhang.idempotency.persistence.StoredResponse;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Keys outside a request: what reconciliation, retention and the operator console need.
 *
 * <p>Every write is fenced by the attempt in the {@link ClaimedKey}: it applies only while that
 * attempt still owns a key in processing.
 */
@ApplicationScoped
public class IdempotencyRecords {

  @Inject IdempotencyStore store;
  @Inject IdempotencySettings settings;

  /**
   * Completes a claimed key with the response its client should be given, in the caller's JTA
   * transaction (or in a transaction of its own when none is active).
   *
   * @return the stored response
   * @throws ClaimLostException when the attempt no longer owns the key
   */
  public StoredResponse complete(ClaimedKey claim, Response response) {
    StoredResponse stored = StoredResponses.capture(response, settings.storedHeaders());
    if (!store.complete(claim, stored)) {
      throw new ClaimLostException(claim);
    }
    return stored;
  }

  /**
   * Releases a claim whose operation certainly had no effect, so that the client's next retry runs
   * as new (under a higher attempt number).
   *
   * @return false when the attempt no longer owns the key (nothing was changed)
   */
  public boolean release(ClaimedKey claim) {
    return store.release(claim);
  }

  /** The key's record, whatever its state. */
  public Optional<IdempotencyRecord> find(String tenant, String operation, String key) {
    return store.find(tenant, operation, key);
  }

  /** Keys of {@code operation} still processing that were claimed more than {@code age} ago. */
  public List<IdempotencyRecord> findProcessing(String operation, Duration age, int limit) {
    return store.findProcessing(operation, Instant.now().minus(age), limit);
  }

  /** Deletes up to {@code batchSize} finished keys past their expiry; never a processing one. */
  public int purgeExpired(int batchSize) {
    return store.purgeExpired(batchSize);
  }
}
