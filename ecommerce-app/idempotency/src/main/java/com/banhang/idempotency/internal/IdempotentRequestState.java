package com.banhang.idempotency.internal;

import com.banhang.idempotency.ClaimedKey;
import com.banhang.idempotency.Idempotent;
import com.banhang.idempotency.OutcomeUnknownException;
import com.banhang.idempotency.spi.ClaimRequest;
import com.banhang.idempotency.IdempotencyRecord;
import com.banhang.idempotency.StoredResponse;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.RequestScoped;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.time.Instant;

/**
 * What the request filter, the interceptors and the response filter of one request tell each other.
 * The filter admits a request ({@link #isAdmitted()}); the claim interceptor claims it once its
 * parameters are bound and valid; only a request that won its claim has a {@link #claim()}.
 */
@RequestScoped
public class IdempotentRequestState {

  @Resource(lookup = "java:comp/TransactionSynchronizationRegistry")
  TransactionSynchronizationRegistry transactions;

  private String operation;
  private Instant expiresAt;
  private Idempotent admittedPolicy;
  private ClaimRequest admittedRequest;
  private boolean newKey;
  private boolean claimAttempted;
  private ClaimedKey claim;
  private IdempotencyRecord claimedInTransaction;
  private boolean executionStarted;
  private volatile StoredResponse completed;
  private OutcomeUnknownException outcomeUnknown;
  private boolean claimLost;
  private volatile boolean completionRolledBack;

  void keyPresented(String operation, Instant expiresAt) {
    this.operation = operation;
    this.expiresAt = expiresAt;
  }

  /** The filter let the request through; {@code newKey}: the key had no row when it looked. */
  void admitted(Idempotent policy, ClaimRequest request, boolean newKey) {
    this.admittedPolicy = policy;
    this.admittedRequest = request;
    this.newKey = newKey;
  }

  boolean isAdmitted() {
    return admittedRequest != null;
  }

  Idempotent admittedPolicy() {
    return admittedPolicy;
  }

  ClaimRequest admittedRequest() {
    return admittedRequest;
  }

  boolean isNewKey() {
    return newKey;
  }

  void claimAttempted() {
    claimAttempted = true;
  }

  /** The claim interceptor ran for this request (whether it won, or answered instead). */
  boolean isClaimAttempted() {
    return claimAttempted;
  }

  /** A JTA transaction is active on this thread. */
  boolean inTransaction() {
    return transactions != null && transactions.getTransactionKey() != null;
  }

  void claimed(ClaimedKey claim) {
    this.claim = claim;
  }

  /**
   * This request owns {@code claimed} inside the operation's transaction: nothing of it is written
   * yet (or only in that transaction), and it ends with that transaction.
   */
  void claimedInTransaction(IdempotencyRecord claimed) {
    this.claim = claimed.claimedKey();
    this.claimedInTransaction = claimed;
  }

  /** The claim made inside the operation's transaction, or null. */
  IdempotencyRecord claimedInTransaction() {
    return claimedInTransaction;
  }

  public ClaimedKey claim() {
    return claim;
  }

  String operation() {
    return operation;
  }

  Instant expiresAt() {
    return expiresAt;
  }

  void executionStarted() {
    executionStarted = true;
  }

  boolean isExecutionStarted() {
    return executionStarted;
  }

  /**
   * The key was completed with {@code stored} in the current transaction. Until that transaction
   * commits the completion is not real: a rollback forgets it, and the response filter then settles
   * the claim as if the method had failed.
   */
  public void completedInTransaction(StoredResponse stored) {
    completed = stored;
    if (transactions != null && transactions.getTransactionKey() != null) {
      transactions.registerInterposedSynchronization(
          new Synchronization() {
            @Override
            public void beforeCompletion() {}

            @Override
            public void afterCompletion(int status) {
              if (status != Status.STATUS_COMMITTED) {
                completed = null;
                completionRolledBack = true;
              }
            }
          });
    }
  }

  StoredResponse completed() {
    return completed;
  }

  /** The method stored its response, but its transaction then rolled back: nothing happened. */
  boolean isCompletionRolledBack() {
    return completionRolledBack;
  }

  void outcomeUnknown(OutcomeUnknownException e) {
    outcomeUnknown = e;
  }

  OutcomeUnknownException outcomeUnknown() {
    return outcomeUnknown;
  }

  void claimLost() {
    claimLost = true;
  }

  boolean isClaimLost() {
    return claimLost;
  }
}
