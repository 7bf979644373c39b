package com.banhang.idempotency;

/** Where an idempotent operation has its effects, which decides what an abandoned claim means. */
public enum SideEffects {
  /**
   * Only the local database is written, in the same JTA transaction as the completed key. A claim
   * whose lease expired without completion therefore had no effect, and a retry may take it over.
   */
  LOCAL,

  /**
   * Another system is called (a payment gateway). A claim left in processing may hide an effect
   * that happened, so it is never taken over by a retry: only the application's reconciliation
   * resolves it, through {@link IdempotencyKeys}.
   */
  REMOTE
}
