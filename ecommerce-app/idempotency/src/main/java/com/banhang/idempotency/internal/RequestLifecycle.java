package com.banhang.idempotency.internal;

import com.banhang.idempotency.ClaimedKey;
import com.banhang.idempotency.IdempotencyRecord;
import com.banhang.idempotency.Idempotent;
import com.banhang.idempotency.OutcomeUnknownException;
import com.banhang.idempotency.StoredResponse;
import com.banhang.idempotency.spi.ClaimRequest;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.RequestScoped;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.time.Instant;

/**
 * One request's life as {@link RequestPhase}s, and what it has learnt on the way (its policy, its
 * claim, the key's expiry, the stored response). Only {@link IdempotencyGate} moves it; every move
 * is checked against the allowed transitions, so a step out of order fails loudly instead of
 * corrupting a key. The exception mappers read it to word their answers.
 */
@RequestScoped
public class RequestLifecycle {

  @Resource(lookup = "java:comp/TransactionSynchronizationRegistry")
  TransactionSynchronizationRegistry transactions;

  // Volatile: a transaction's completion may be reported on another thread (a timeout reaper).
  private volatile RequestPhase phase = RequestPhase.UNGUARDED;
  private String operation;
  private Instant expiresAt;
  private Idempotent policy;
  private ClaimRequest claimRequest;
  private boolean newKey;
  private ClaimedKey claim;
  private IdempotencyRecord claimedInTransaction;
  private volatile StoredResponse stored;
  private OutcomeUnknownException outcomeUnknown;

  RequestPhase phase() {
    return phase;
  }

  private void moveTo(RequestPhase next) {
    RequestPhase current = phase;
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
    moveTo(RequestPhase.ADMITTED);
    this.policy = policy;
    this.claimRequest = request;
    this.newKey = newKey;
  }

  /** Answered without running the method. */
  void answered() {
    moveTo(RequestPhase.ANSWERED);
  }

  /** Won the key with a claim committed on its own. */
  void claimed(ClaimedKey claim) {
    moveTo(RequestPhase.CLAIMED);
    this.claim = claim;
  }

  /**
   * Won the key inside the operation's transaction ({@code claimed} as the claim found it): nothing
   * of it is written yet, or only in that transaction, and it ends with that transaction.
   */
  void claimedInTransaction(IdempotencyRecord claimed) {
    moveTo(RequestPhase.CLAIMED);
    this.claim = claimed.claimedKey();
    this.claimedInTransaction = claimed;
  }

  void executing() {
    moveTo(RequestPhase.EXECUTING);
  }

  /**
   * The key was completed with {@code response} in the current transaction. Until that transaction
   * commits the completion is not real: a rollback forgets it ({@link RequestPhase#ROLLED_BACK}).
   * Without a transaction the completion committed on its own.
   */
  void completedUncommitted(StoredResponse response) {
    moveTo(RequestPhase.COMPLETED_UNCOMMITTED);
    stored = response;
    if (transactions == null || transactions.getTransactionKey() == null) {
      moveTo(RequestPhase.COMPLETED);
      return;
    }
    transactions.registerInterposedSynchronization(
        new Synchronization() {
          @Override
          public void beforeCompletion() {}

          @Override
          public void afterCompletion(int status) {
            if (status == Status.STATUS_COMMITTED) {
              moveTo(RequestPhase.COMPLETED);
            } else {
              stored = null;
              moveTo(RequestPhase.ROLLED_BACK);
            }
          }
        });
  }

  /** A business rejection, stored as the key's final answer after the method failed. */
  void rejectionStored(StoredResponse response) {
    moveTo(RequestPhase.COMPLETED);
    stored = response;
  }

  void outcomeUnknown(OutcomeUnknownException e) {
    moveTo(RequestPhase.OUTCOME_UNKNOWN);
    outcomeUnknown = e;
  }

  void claimLost() {
    moveTo(RequestPhase.CLAIM_LOST);
  }

  void released() {
    moveTo(RequestPhase.RELEASED);
  }

  // ---- What the phases and the gate read.

  /** Whether the method's response is stored (committed, or in its still open transaction). */
  boolean isCompleted() {
    return phase == RequestPhase.COMPLETED_UNCOMMITTED || phase == RequestPhase.COMPLETED;
  }

  /** A JTA transaction is active on this thread. */
  boolean inTransaction() {
    return transactions != null && transactions.getTransactionKey() != null;
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
}
