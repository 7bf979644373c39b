package com.banhang.idempotency;

/** Life of a key. */
public enum RecordStatus {
  /** Claimed; its owner is running the operation. */
  PROCESSING,
  /** Finished with a stored response that every retry is given. */
  COMPLETED,
  /**
   * Ended without effect; the next request with the key runs as new. The row stays (until it
   * expires) so that the attempt number keeps rising: an owner of an old attempt can never act on a
   * later claim of the same key.
   */
  RELEASED
}
