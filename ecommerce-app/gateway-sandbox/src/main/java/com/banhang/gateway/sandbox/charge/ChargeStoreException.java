package com.banhang.gateway.sandbox.charge;

/**
 * The charge store failed (the database is unreachable, a statement failed): not a request error.
 */
public class ChargeStoreException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public ChargeStoreException(String message, Throwable cause) {
    super(message, cause);
  }
}
