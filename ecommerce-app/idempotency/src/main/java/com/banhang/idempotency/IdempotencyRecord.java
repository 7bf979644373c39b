package com.banhang.idempotency;

import java.time.Duration;
import java.time.Instant;

/**
 * One row of the idempotency table.
 *
 * @param fingerprint the request's fingerprint (SHA-256, hex; the column {@code request_hash})
 * @param outcomeUnknown true while a remote side effect may or may not have happened
 * @param attempt the fencing number, raised by every takeover
 * @param response the stored response: the final one when completed, the problem served to retries
 *     when the outcome is unknown, otherwise null
 * @param lastCheck the last check recorded on a processing row by whoever settles it (for payments,
 *     the reconciliation outcome), or null
 * @param lastCheckDetail words that go with {@code lastCheck}, or null
 * @param lastCheckedAt when {@code lastCheck} was recorded, or null
 * @param readAt the database's clock when the row was read: every time decision about the row
 *     ({@link #expired()}, {@link #leaseExpired()}, {@link #age()}) is taken against it, never
 *     against the reading server's clock (docs/idempotency.md, "Time")
 */
public record IdempotencyRecord(
    String tenant,
    String operation,
    String key,
    String fingerprint,
    Status status,
    boolean outcomeUnknown,
    int attempt,
    Instant lockedUntil,
    Instant createdAt,
    Instant completedAt,
    Instant expiresAt,
    StoredResponse response,
    String lastCheck,
    String lastCheckDetail,
    Instant lastCheckedAt,
    Instant readAt) {

  /** Life of a key. */
  public enum Status {
    /** Claimed; its owner is running the operation. */
    PROCESSING,
    /** Finished with a stored response that every retry is given. */
    COMPLETED,
    /**
     * Ended without effect; the next request with the key runs as new. The row stays (until it
     * expires) so that the attempt number keeps rising: an owner of an old attempt can never act on
     * a later claim of the same key.
     */
    RELEASED
  }

  public ClaimedKey claimedKey() {
    return new ClaimedKey(tenant, operation, key, attempt);
  }

  public boolean completed() {
    return status == Status.COMPLETED;
  }

  /** Whether the key's time to live had run out when the row was read, by the database's clock. */
  public boolean expired() {
    return !expiresAt.isAfter(readAt);
  }

  /** Whether the owner's lease had run out when the row was read, by the database's clock. */
  public boolean leaseExpired() {
    return !lockedUntil.isAfter(readAt);
  }

  /** How long ago the current attempt claimed the key, when the row was read, by the database. */
  public Duration age() {
    return Duration.between(createdAt, readAt);
  }

  /** This record as read at {@code readAt}, the database's clock at the read. */
  public IdempotencyRecord withReadAt(Instant readAt) {
    return new IdempotencyRecord(
        tenant,
        operation,
        key,
        fingerprint,
        status,
        outcomeUnknown,
        attempt,
        lockedUntil,
        createdAt,
        completedAt,
        expiresAt,
        response,
        lastCheck,
        lastCheckDetail,
        lastCheckedAt,
        readAt);
  }
}
