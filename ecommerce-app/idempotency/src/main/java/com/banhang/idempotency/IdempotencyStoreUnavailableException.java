package com.banhang.idempotency;

/**
 * Thrown when the idempotency store cannot be reached. The request is refused with 503 before any
 * side effect: without a claim there is no protection, so the library fails closed.
 */
public class IdempotencyStoreUnavailableException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public IdempotencyStoreUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
