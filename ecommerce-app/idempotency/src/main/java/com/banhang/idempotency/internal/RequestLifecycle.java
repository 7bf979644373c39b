package com.banhang.idempotency.internal;

import com.banhang.idempotency.ClaimedKey;
import com.banhang.idempotency.IdempotencyRecord;
import com.banhang.idempotency.Idempotent;
import com.banhang.idempotency.OutcomeUnknownException;
import com.banhang.idempotency.StoredResponse;
import com.banhang.idempotency.spi.IdempotencyStore.ClaimRequest;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * One request's life as {@link Phase}s, and what it has learnt on the way (its policy, its claim,
 * the key's expiry, the stored response). Only {@link IdempotencyGate} moves it; every move is
 * checked against the allowed transitions, so a step out of order fails loudly instead of
 * corrupting a key. The exception mappers read it to word their answers.
 */
@RequestScoped
public class RequestLifecycle {

  /**
   * The server's transaction registry: the application-wide one of {@link IdempotencySettings}, or
   * the unit tests' own. A {@code @Resource} field here was injected anew with every request's
   * instance, a JNDI lookup that cost a keyed create more CPU than its fingerprint
   * (docs/performance.md, "Where a key's cost goes").
   */
  TransactionSynchronizationRegistry transactions;

  @Inject IdempotencySettings settings;

  // Volatile: a transaction's completion may be reported on another thread (a timeout reaper).
  private volatile Phase phase = Phase.UNGUARDED;
  private String operation;
  private Instant expiresAt;
  private Idempotent policy;
  private ClaimRequest claimRequest;
  private boolean newKey;
  private ClaimedKey claim;
  private IdempotencyRecord claimedInTransaction;
  private volatile StoredResponse stored;
  private OutcomeUnknownException outcomeUnknown;

  Phase phase() {
    return phase;
  }

  private void moveTo(Phase next) {
    Phase current = phase;
    if (!current.mayMoveTo(next)) {
      throw new IllegalStateException(
          "idempotent request of " + operation + " cannot go from " + current + " to " + next);
    }
    phase = next;
  }

  // ---- What the gate learns, in the order it learns it.

  /** The key was presented for {@code operation}; a response states {@code expiresAt}. */
  void keyPresented(String operation, Instant expiresAt) {
    this.operation = operation;
    this.expiresAt = expiresAt;
  }

  /** The row that binds the key says it expires at {@code expiresAt}. */
  void keyExpires(Instant expiresAt) {
    this.expiresAt = expiresAt;
  }

  /** Let through the request filter; {@code newKey}: the key had no row when it looked. */
  void admitted(Idempotent policy, ClaimRequest request, boolean newKey) {
    moveTo(Phase.ADMITTED);
    this.policy = policy;
    this.claimRequest = request;
    this.newKey = newKey;
  }

  /** Answered without running the method. */
  void answered() {
    moveTo(Phase.ANSWERED);
  }

  /** Won the key with a claim committed on its own. */
  void claimed(ClaimedKey claim) {
    moveTo(Phase.CLAIMED);
    this.claim = claim;
  }

  /**
   * Won the key inside the operation's transaction ({@code claimed} as the claim found it): nothing
   * of it is written yet, or only in that transaction, and it ends with that transaction.
   */
  void claimedInTransaction(IdempotencyRecord claimed) {
    moveTo(Phase.CLAIMED);
    this.claim = claimed.claimedKey();
    this.claimedInTransaction = claimed;
  }

  void executing() {
    moveTo(Phase.EXECUTING);
  }

  /**
   * The key was completed with {@code response} in the current transaction. Until that transaction
   * commits the completion is not real: a rollback forgets it ({@link Phase#ROLLED_BACK}). Without
   * a transaction the completion committed on its own.
   */
  void completedUncommitted(StoredResponse response) {
    moveTo(Phase.COMPLETED_UNCOMMITTED);
    stored = response;
    TransactionSynchronizationRegistry transactions = transactions();
    if (transactions == null || transactions.getTransactionKey() == null) {
      moveTo(Phase.COMPLETED);
      return;
    }
    transactions.registerInterposedSynchronization(
        new Synchronization() {
          @Override
          public void beforeCompletion() {}

          @Override
          public void afterCompletion(int status) {
            if (status == Status.STATUS_COMMITTED) {
              moveTo(Phase.COMPLETED);
            } else {
              stored = null;
              moveTo(Phase.ROLLED_BACK);
            }
          }
        });
  }

  /** A business rejection, stored as the key's final answer after the method failed. */
  void rejectionStored(StoredResponse response) {
    moveTo(Phase.COMPLETED);
    stored = response;
  }

  void outcomeUnknown(OutcomeUnknownException e) {
    moveTo(Phase.OUTCOME_UNKNOWN);
    outcomeUnknown = e;
  }

  void claimLost() {
    moveTo(Phase.CLAIM_LOST);
  }

  void released() {
    moveTo(Phase.RELEASED);
  }

  // ---- What the phases and the gate read.

  /** Whether the method's response is stored (committed, or in its still open transaction). */
  boolean isCompleted() {
    return phase == Phase.COMPLETED_UNCOMMITTED || phase == Phase.COMPLETED;
  }

  /** A JTA transaction is active on this thread. */
  boolean inTransaction() {
    TransactionSynchronizationRegistry transactions = transactions();
    return transactions != null && transactions.getTransactionKey() != null;
  }

  private TransactionSynchronizationRegistry transactions() {
    if (transactions == null && settings != null) {
      transactions = settings.transactions();
    }
    return transactions;
  }

  String operation() {
    return operation;
  }

  Instant expiresAt() {
    return expiresAt;
  }

  Idempotent policy() {
    return policy;
  }

  ClaimRequest claimRequest() {
    return claimRequest;
  }

  boolean isNewKey() {
    return newKey;
  }

  /** The claim this request won, whatever became of it since; null when it won none. */
  ClaimedKey claim() {
    return claim;
  }

  /** The claim made inside the operation's transaction, or null. */
  IdempotencyRecord claimedInTransaction() {
    return claimedInTransaction;
  }

  StoredResponse stored() {
    return stored;
  }

  OutcomeUnknownException outcomeUnknownCause() {
    return outcomeUnknown;
  }

  /**
   * The phases of one request's life, and the only transitions allowed between them. Each phase
   * names its recovery point: what the key's row says, and so what a retry finds, if the server
   * dies in that phase (docs/idempotency.md).
   *
   * <pre>
   * UNGUARDED ─▶ ADMITTED ─▶ CLAIMED ─▶ EXECUTING ─▶ COMPLETED_UNCOMMITTED ─▶ COMPLETED
   *     │            │           │          │  │  │                 │
   *     ▼            ▼           ▼          │  │  └▶ CLAIM_LOST     └▶ ROLLED_BACK ─▶ RELEASED
   *  ANSWERED     ANSWERED    RELEASED      │  └▶ OUTCOME_UNKNOWN                 └▶ COMPLETED
   *                                         └▶ RELEASED, or COMPLETED (a stored rejection)
   * </pre>
   *
   * <p>{@code ROLLED_BACK} may also go on to {@code OUTCOME_UNKNOWN} or {@code CLAIM_LOST}; the
   * table {@link #NEXT} is the whole truth.
   */
  enum Phase {

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
     * committed in processing (a retry gets 409 until its lease runs out, then "outcome unknown");
     * a local operation's claim lives in its transaction only (a crash leaves nothing).
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
     * failure: the key is released, or a business rejection is stored on its own. A remote
     * operation whose recording transaction rolled back goes on to {@link #OUTCOME_UNKNOWN} (its
     * effect at the other system stays) or {@link #CLAIM_LOST}.
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

    private static final Map<Phase, Set<Phase>> NEXT =
        Map.ofEntries(
            Map.entry(UNGUARDED, EnumSet.of(ADMITTED, ANSWERED)),
            Map.entry(ADMITTED, EnumSet.of(CLAIMED, ANSWERED)),
            Map.entry(CLAIMED, EnumSet.of(EXECUTING, RELEASED, CLAIM_LOST)),
            Map.entry(
                EXECUTING,
                EnumSet.of(
                    COMPLETED_UNCOMMITTED, OUTCOME_UNKNOWN, CLAIM_LOST, RELEASED, COMPLETED)),
            Map.entry(COMPLETED_UNCOMMITTED, EnumSet.of(COMPLETED, ROLLED_BACK)),
            Map.entry(ROLLED_BACK, EnumSet.of(RELEASED, COMPLETED, OUTCOME_UNKNOWN, CLAIM_LOST)),
            Map.entry(COMPLETED, EnumSet.noneOf(Phase.class)),
            Map.entry(ANSWERED, EnumSet.noneOf(Phase.class)),
            Map.entry(OUTCOME_UNKNOWN, EnumSet.noneOf(Phase.class)),
            Map.entry(CLAIM_LOST, EnumSet.noneOf(Phase.class)),
            Map.entry(RELEASED, EnumSet.noneOf(Phase.class)));

    /** Whether a request in this phase may move to {@code next}. */
    boolean mayMoveTo(Phase next) {
      return NEXT.get(this).contains(next);
    }

    /** Whether this request owns the key and has not ended its claim. */
    boolean ownsClaim() {
      return this == CLAIMED || this == EXECUTING || this == COMPLETED_UNCOMMITTED;
    }
  }
}
