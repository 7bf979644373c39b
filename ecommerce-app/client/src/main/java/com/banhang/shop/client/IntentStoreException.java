package com.banhang.shop.client;

/**
 * An intent could not be written, or a stored one cannot be read. Not an answer of the shop: when
 * it is thrown before the first try, nothing was sent, since a request whose key could not be kept
 * must not be sent.
 */
public class IntentStoreException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public IntentStoreException(String message, Throwable cause) {
    super(message, cause);
  }

  public IntentStoreException(String message) {
    super(message);
  }
}
