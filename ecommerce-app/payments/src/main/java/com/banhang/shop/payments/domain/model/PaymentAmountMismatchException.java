package com.banhang.shop.payments.domain.model;

/** Thrown when a payment's amount or currency is not the order's total: nothing is charged. */
public class PaymentAmountMismatchException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public PaymentAmountMismatchException(
      String orderId, long expected, String expectedCurrency, long amount, String currency) {
    super(
        String.format(
            "order %s costs %d %s; the payment offers %d %s",
            orderId, expected, expectedCurrency, amount, currency));
  }
}
