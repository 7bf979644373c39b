package com.banhang.shop.payments.domain.model;

/** Thrown when: order {@code orderId} already has a payment in progress or captured. */
public class PaymentInProgressException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public PaymentInProgressException(String orderId) {
    super(String.format("Order %s already has a payment in progress or captured", orderId));
  }
}
