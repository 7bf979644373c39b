package com.banhang.shop.payments.infrastructure.gateway;

/**
 * The processor answered a charge request with a charge that is not the request's: another amount,
 * currency or order reference under the same gateway key. It is never recorded; the outcome of the
 * request is unknown and reconciliation leaves the payment to an operator (docs/payments.md). Never
 * retried: asking again under the same key gets the same charge.
 */
public class GatewayChargeMismatchException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  GatewayChargeMismatchException(String message) {
    super(message);
  }
}
