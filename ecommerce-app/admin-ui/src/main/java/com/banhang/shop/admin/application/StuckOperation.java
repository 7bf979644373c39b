package com.banhang.shop.admin.application;

import java.time.Duration;
import java.time.Instant;

/** A key still processing: one row of the Stuck operations view. */
public record StuckOperation(
    KeyRef ref,
    int attempt,
    Instant createdAt,
    Instant lockedUntil,
    boolean outcomeUnknown,
    String lastCheck,
    Instant lastCheckedAt) {

  public Duration age(Instant now) {
    return Duration.between(createdAt, now);
  }

  public boolean leaseExpired(Instant now) {
    return !lockedUntil.isAfter(now);
  }
}
