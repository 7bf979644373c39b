package com.banhang.idempotency.internal;

/** The {@code Idempotency-Key} header is present but not a key (docs/idempotency.md). */
public class InvalidIdempotencyKeyException extends Exception {

  private static final long serialVersionUID = 1L;

  public InvalidIdempotencyKeyException(String reason) {
    super(reason);
  }
}
