package com.banhang.shop.payments.domain.model;

/** Thrown when: there is no payment {@code paymentId} for this customer. */
public class PaymentNotFoundException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public PaymentNotFoundException(String paymentId) {
    super(String.format("No payment %s for this customer", paymentId));
  }
}
