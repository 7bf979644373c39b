package com.banhang.shop.payments.application;

/**
 * Thrown when the processor may have charged but did not say so (timeout, broken connection, lost
 * response). Nothing may be charged under a new key: reconciliation asks the processor by the same
 * key.
 */
public class GatewayOutcomeUnknownException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public GatewayOutcomeUnknownException(String message, Throwable cause) {
    super(message, cause);
  }
}
