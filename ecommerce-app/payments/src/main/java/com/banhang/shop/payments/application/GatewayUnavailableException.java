package com.banhang.shop.payments.application;

/**
 * Thrown when the processor certainly did not charge: it could not be reached, or it said it failed
 * before charging. The attempt is abandoned and the key released, so the client may retry.
 */
public class GatewayUnavailableException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public GatewayUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
