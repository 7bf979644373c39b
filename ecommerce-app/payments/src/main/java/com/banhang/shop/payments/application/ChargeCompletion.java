package com.banhang.shop.payments.application;

import com.banhang.idempotency.ClaimedKey;
import com.banhang.idempotency.IdempotencyKeys;
import com.banhang.idempotency.IdempotentRequest;
import com.banhang.shop.payments.domain.model.Payment;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.core.Response;

/**
 * Records a definite gateway result and completes the Idempotency-Key with the client's answer in
 * ONE JTA transaction: the payment, the order's PAID status and the completed key commit together
 * or not at all (docs/payments.md).
 *
 * <p><b>The key is written last.</b> The completion (or release) of the key is a plain JDBC {@code
 * UPDATE} by the library, executed at once; the JPA changes of the payment and the order would
 * otherwise be flushed by EclipseLink only at commit, after it. The key's row would then stay
 * exclusively locked while those {@code UPDATE}s run, and a duplicate claim of the key waits on
 * that lock: on SQL Server the claim gives up after 5 s (error 1222, a 503). So every method here
 * flushes the business writes first and completes the key as the transaction's last statement
 * (docs/sqlserver.md, "The key is written last").
 */
@ApplicationScoped
public class ChargeCompletion {

  @Inject PaymentService payments;
  @Inject SettledPaymentResponses responses;
  @Inject IdempotentRequest currentRequest;
  @Inject IdempotencyKeys keys;

  @PersistenceContext(unitName = "shop")
  EntityManager entityManager;

  /** From the request that called the gateway; returns the response built from the stored bytes. */
  @Transactional
  public Response completeRequest(String paymentId, GatewayCharge charge) {
    Payment payment = payments.recordCharge(paymentId, charge);
    entityManager.flush();
    return currentRequest.complete(responses.forSettled(payment));
  }

  /**
   * From a new claim of a key whose earlier attempt is already captured (recorded by the
   * late-charge sweep after the key's release): completes the key with that payment's 201; no
   * business write.
   */
  @Transactional
  public Response completeRequestWithEarlierCapture(Payment payment) {
    return currentRequest.complete(responses.forSettled(payment));
  }

  /** From reconciliation, for a claim whose request is gone; fenced by the claim's attempt. */
  @Transactional
  public Payment completeClaim(ClaimedKey claim, String paymentId, GatewayCharge charge) {
    Payment payment = payments.recordCharge(paymentId, charge);
    entityManager.flush();
    keys.complete(claim, responses.forSettled(payment));
    return payment;
  }
}
