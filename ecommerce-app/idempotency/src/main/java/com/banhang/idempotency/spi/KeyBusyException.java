package com.banhang.idempotency.spi;

/**
 * A claim made inside the caller's transaction ({@link IdempotencyStore#claimInTransaction}) waited
 * longer than it may for the transaction that holds the key: the owner is slow, not gone. The
 * caller's transaction can no longer be used and must roll back; the request is answered like any
 * key still running (409 with Retry-After).
 */
public class KeyBusyException extends RuntimeException {

  public KeyBusyException(String message, Throwable cause) {
    super(message, cause);
  }
}
