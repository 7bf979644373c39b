package com.banhang.shop.payments.infrastructure.gateway;

/**
 * One call to the processor failed in a way a retry under the same key may fix. It says whether the
 * request may have reached the processor, which decides what the failure finally means.
 */
public class GatewayCallFailedException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final boolean mayHaveCharged;

  GatewayCallFailedException(String message, boolean mayHaveCharged, Throwable cause) {
    super(message, cause);
    this.mayHaveCharged = mayHaveCharged;
  }

  boolean mayHaveCharged() {
    return mayHaveCharged;
  }
}
