package com.banhang.shop.admin.application;

import java.time.Duration;
import java.time.Instant;

/**
 * A key still processing: one row of the Stuck operations view.
 *
 * @param readAt the database's clock when the key was read: its age and whether its lease ran out
 *     are measured against it, never against this server's clock
 */
public record StuckOperation(
    KeyRef ref,
    int attempt,
    Instant createdAt,
    Instant lockedUntil,
    boolean outcomeUnknown,
    String lastCheck,
    Instant lastCheckedAt,
    Instant readAt) {

  public Duration age() {
    return Duration.between(createdAt, readAt);
  }

  public boolean leaseExpired() {
    return !lockedUntil.isAfter(readAt);
  }
}
