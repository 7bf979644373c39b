package com.banhang.shop.payments.application;

/**
 * The server secret of the gateway keys ({@value GatewayKeys#SECRET_PROPERTY}) is missing or
 * unusable: no payment can be started until it is configured. The message names the property and
 * never contains its value.
 */
public class InvalidGatewayKeySecretException extends IllegalStateException {

  private static final long serialVersionUID = 1L;

  InvalidGatewayKeySecretException(String message) {
    super(message);
  }
}
