package com.banhang.idempotency.internal;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The phases of one request's life, and the only transitions allowed between them. Each phase names
 * its recovery point: what the key's row says, and so what a retry finds, if the server dies in
 * that phase (docs/idempotency.md).
 *
 * <pre>
 * UNGUARDED ─▶ ADMITTED ─▶ CLAIMED ─▶ EXECUTING ─▶ COMPLETED_UNCOMMITTED ─▶ COMPLETED
 *     │            │           │          │  │  │                 │
 *     ▼            ▼           ▼          │  │  └▶ CLAIM_LOST     └▶ ROLLED_BACK ─▶ RELEASED
 *  ANSWERED     ANSWERED    RELEASED      │  └▶ OUTCOME_UNKNOWN                 └▶ COMPLETED
 *                                         └▶ RELEASED, or COMPLETED (a stored rejection)
 * </pre>
 *
 * <p>{@code ROLLED_BACK} may also go on to {@code OUTCOME_UNKNOWN} or {@code CLAIM_LOST}; the table
 * {@link #NEXT} is the whole truth.
 */
enum RequestPhase {

  /**
   * Nothing to guard (yet): the request carried no key where one is optional, or the method was
   * called outside a request. Recovery point: none, nothing is written for it.
   */
  UNGUARDED,

  /**
   * Key read and valid, body fingerprinted, not answered by the first read; waiting for JAX-RS to
   * bind and validate the parameters before the claim. Recovery point: nothing written; a retry
   * runs as new.
   */
  ADMITTED,

  /**
   * Answered without running the method: a refusal (400, 401, 413, 429, 503), a replay, 422 for a
   * reused key, 409 for a running one. Final; nothing of this request is written.
   */
  ANSWERED,

  /**
   * This request owns the key. Recovery point "started": a remote operation's claim row is
   * committed in processing (a retry gets 409 until its lease runs out, then "outcome unknown"); a
   * local operation's claim lives in its transaction only (a crash leaves nothing).
   */
  CLAIMED,

  /** The method is running. Recovery point: as {@link #CLAIMED}. */
  EXECUTING,

  /**
   * The method's response is stored in its transaction, which has not committed yet. Recovery
   * point: as {@link #CLAIMED} (nothing of the transaction is visible before its commit).
   */
  COMPLETED_UNCOMMITTED,

  /**
   * The response and the business rows committed together (or a business rejection was stored as
   * final). Recovery point "finished": every retry is answered with the stored response.
   */
  COMPLETED,

  /**
   * The response was stored, but its transaction rolled back: nothing happened. Settled as a
   * failure: the key is released, or a business rejection is stored on its own. A remote operation
   * whose recording transaction rolled back goes on to {@link #OUTCOME_UNKNOWN} (its effect at the
   * other system stays) or {@link #CLAIM_LOST}.
   */
  ROLLED_BACK,

  /**
   * A remote effect may or may not have happened. Recovery point "outcome unknown": the key stays
   * in processing, marked, and every retry gets the operation's 409 until reconciliation decides.
   */
  OUTCOME_UNKNOWN,

  /**
   * Another attempt took the key over (this one's lease ran out) or reconciliation resolved it:
   * this request's work rolls back and the new owner answers. Final.
   */
  CLAIM_LOST,

  /**
   * The claim ended without effect (the method failed before or without a side effect). Recovery
   * point "released": the next retry runs as new, under a higher attempt number. Final.
   */
  RELEASED;

  private static final Map<RequestPhase, Set<RequestPhase>> NEXT =
      Map.ofEntries(
          Map.entry(UNGUARDED, EnumSet.of(ADMITTED, ANSWERED)),
          Map.entry(ADMITTED, EnumSet.of(CLAIMED, ANSWERED)),
          Map.entry(CLAIMED, EnumSet.of(EXECUTING, RELEASED, CLAIM_LOST)),
          Map.entry(
              EXECUTING,
              EnumSet.of(COMPLETED_UNCOMMITTED, OUTCOME_UNKNOWN, CLAIM_LOST, RELEASED, COMPLETED)),
          Map.entry(COMPLETED_UNCOMMITTED, EnumSet.of(COMPLETED, ROLLED_BACK)),
          Map.entry(ROLLED_BACK, EnumSet.of(RELEASED, COMPLETED, OUTCOME_UNKNOWN, CLAIM_LOST)),
          Map.entry(COMPLETED, EnumSet.noneOf(RequestPhase.class)),
          Map.entry(ANSWERED, EnumSet.noneOf(RequestPhase.class)),
          Map.entry(OUTCOME_UNKNOWN, EnumSet.noneOf(RequestPhase.class)),
          Map.entry(CLAIM_LOST, EnumSet.noneOf(RequestPhase.class)),
          Map.entry(RELEASED, EnumSet.noneOf(RequestPhase.class)));

  /** Whether a request in this phase may move to {@code next}. */
  boolean mayMoveTo(RequestPhase next) {
    return NEXT.get(this).contains(next);
  }

  /** Whether this request owns the key and has not ended its claim. */
  boolean ownsClaim() {
    return this == CLAIMED || this == EXECUTING || this == COMPLETED_UNCOMMITTED;
  }
}
