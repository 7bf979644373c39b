package com.banhang.idempotency.persistence;

import com.banhang.idempotency.ClaimedKey;
import java.time.Instant;

/**
 * One row of the idempotency table.
 *
 * @param requestHash SHA-256 hex of the request's fingerprint
 * @param outcomeUnknown true while a remote side effect may or may not have happened
 * @param attempt the fencing number, raised by every takeover
 * @param response the stored response: the final one when completed, the problem served to retries
 *     when the outcome is unknown, otherwise null
 * @param lastCheck the last check recorded on a processing row by whoever settles it (for payments,
 *     the reconciliation outcome), or null
 * @param lastCheckDetail words that go with {@code lastCheck}, or null
 * @param lastCheckedAt when {@code lastCheck} was recorded, or null
 */
public record IdempotencyRecord(
    String tenant,
    String operation,
    String key,
    String requestHash,
    RecordStatus status,
    boolean outcomeUnknown,
    int attempt,
    Instant lockedUntil,
    Instant createdAt,
    Instant completedAt,
    Instant expiresAt,
    StoredResponse response,
    String lastCheck,
    String lastCheckDetail,
    Instant lastCheckedAt) {

  public ClaimedKey claimedKey() {
    return new ClaimedKey(tenant, operation, key, attempt);
  }

  public boolean completed() {
    return status == RecordStatus.COMPLETED;
  }
}
