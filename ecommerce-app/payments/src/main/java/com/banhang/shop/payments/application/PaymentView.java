package com.banhang.shop.payments.application;

import com.banhang.shop.payments.domain.model.Payment;

/** A payment as the API shows it. */
public record PaymentView(
    String id,
    String orderId,
    String status,
    long amount,
    String currency,
    String gatewayChargeId) {

  public static PaymentView of(Payment payment) {
    return new PaymentView(
        payment.id(),
        payment.orderId(),
        payment.status().name(),
        payment.amount(),
        payment.currency(),
        payment.gatewayChargeId());
  }
}
