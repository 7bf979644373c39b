package com.banhang.idempotency;

import java.time.Duration;

/**
 * What happened to one keyed request, fired as a CDI event so that an application can count it (the
 * rates of new, replayed, conflicting and in-progress requests) with whatever metrics library it
 * uses, or write a key's history (the retries of one intent and what each was answered); the
 * library itself depends on none.
 *
 * @param operation the operation the request was for
 * @param kind what the library did with the request
 * @param claimTime how long the store took to decide this request: the fast-path read of a
 *     completed key plus the claim, whichever of them ran; null for events that follow no lookup (a
 *     request refused before its claim, and the settling of a claim after the method)
 * @param tenant the caller that scopes the key, as the store keeps it; null when the event is not
 *     about one key (a request refused before its caller or key was read)
 * @param key the request's {@code Idempotency-Key}; null when the event is not about one key (no
 *     key, or one refused before it was read)
 */
public record IdempotencyEvent(
    String operation, Kind kind, Duration claimTime, String tenant, String key) {

  /** An event that is not about one key. */
  public IdempotencyEvent(String operation, Kind kind, Duration claimTime) {
    this(operation, kind, claimTime, null, null);
  }

  /** An event that follows no lookup in the store and is not about one key. */
  public IdempotencyEvent(String operation, Kind kind) {
    this(operation, kind, null, null, null);
  }

  /** What the library did with one keyed request: the kind of event. */
  public enum Kind {
    /** The key was claimed: the operation runs. */
    CLAIMED,
    /** A completed key's stored response was replayed. */
    REPLAYED,
    /** The key's first attempt was still running: 409. */
    IN_PROGRESS,
    /** The key was used for another request: 422. */
    KEY_REUSED,
    /** The key's remote outcome is unknown: 409 until reconciled. */
    OUTCOME_UNKNOWN,
    /** The caller, key or body was refused before any claim: 400, 401 or 413. */
    REJECTED,
    /** A new key over the tenant's rate limit for the operation: 429, nothing written. */
    RATE_LIMITED,
    /** The store could not be reached: 503, nothing ran. */
    STORE_UNAVAILABLE,
    /** The operation's response was stored with its effect. */
    COMPLETED,
    /** A final 4xx decision was stored and will be replayed. */
    REJECTION_STORED,
    /** The claim was released: the next retry runs as new. */
    RELEASED,
    /** A remote operation ended with an unknown outcome; the key waits for reconciliation. */
    MARKED_UNKNOWN
  }
}
