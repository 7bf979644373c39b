package com.banhang.idempotency;

/**
 * Thrown when a worker tries to complete or release a key whose claim it no longer owns: its lease
 * expired and another attempt took the key over, or reconciliation resolved it. Thrown inside the
 * business transaction, it rolls that transaction back, so the stale worker's effect never commits.
 */
public class ClaimLostException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final transient ClaimedKey claim;

  public ClaimLostException(ClaimedKey claim) {
    super("attempt " + claim.attempt() + " no longer owns key of " + claim.operation());
    this.claim = claim;
  }

  public ClaimedKey claim() {
    return claim;
  }
}
