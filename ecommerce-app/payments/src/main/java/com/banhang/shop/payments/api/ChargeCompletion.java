package com.banhang.shop.payments.api;

import com.banhang.idempotency.ClaimedKey;
import com.banhang.idempotency.CurrentIdempotentRequest;
import com.banhang.idempotency.IdempotencyRecords;
import com.banhang.shop.payments.api.rest.PaymentResponses;
import com.banhang.shop.payments.application.GatewayCharge;
import com.banhang.shop.payments.application.PaymentService;
import com.banhang.shop.payments.domain.model.Payment;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.core.Response;

/**
 * Records a definite gateway result and completes the Idempotency-Key with the client's answer in
 * ONE JTA transaction: the payment, the order's PAID status and the completed key commit together
 * or not at all (docs/payments.md).
 */
@ApplicationScoped
public class ChargeCompletion {

  @Inject PaymentService payments;
  @Inject CurrentIdempotentRequest currentRequest;
  @Inject IdempotencyRecords records;

  /** From the request that called the gateway; returns the response built from the stored bytes. */
  @Transactional
  public Response completeRequest(String paymentId, GatewayCharge charge) {
    Payment payment = payments.recordCharge(paymentId, charge);
    return currentRequest.complete(PaymentResponses.forSettled(payment));
  }

  /** From reconciliation, for a claim whose request is gone; fenced by the claim's attempt. */
  @Transactional
  public Payment completeClaim(ClaimedKey claim, String paymentId, GatewayCharge charge) {
    Payment payment = payments.recordCharge(paymentId, charge);
    records.complete(claim, PaymentResponses.forSettled(payment));
    return payment;
  }
}
