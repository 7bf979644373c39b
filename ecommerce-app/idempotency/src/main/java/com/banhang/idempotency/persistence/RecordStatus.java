package com.banhang.idempotency.persistence;

/** Life of a key: claimed and running, or finished with a stored response to replay. */
public enum RecordStatus {
  PROCESSING,
  COMPLETED
}
