package com.banhang.shop.payments.application;

import com.banhang.shop.payments.domain.model.Payment;
import jakarta.ws.rs.core.Response;

/**
 * The answer a settled payment gives the client of payments.charge, which the application stores as
 * the key's response: the same whether the request itself recorded the payment or reconciliation or
 * an operator did later, so that a replay is indistinguishable from the original. The REST layer
 * builds it ({@code api.rest.PaymentResponses}), because it is that layer's answer; the application
 * only hands it to the idempotency library, and so depends on no REST resource.
 */
public interface SettledPaymentResponses {

  /**
   * The 201 with the payment for a captured payment, the 402 problem for a declined one.
   *
   * @throws IllegalStateException when the payment is not settled
   */
  Response forSettled(Payment payment);
}
