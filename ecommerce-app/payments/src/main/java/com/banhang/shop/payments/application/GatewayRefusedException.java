package com.banhang.shop.payments.application;

/**
 * Thrown when the processor refused the request itself (400 or 422: a payment method it does not
 * know, a request it cannot read). Nothing was charged and the same request would be refused again:
 * the attempt is abandoned and the refusal is the final answer for the key.
 */
public class GatewayRefusedException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public GatewayRefusedException(String message) {
    super(message);
  }
}
