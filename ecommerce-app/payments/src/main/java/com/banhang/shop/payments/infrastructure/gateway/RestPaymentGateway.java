package com.banhang.shop.payments.infrastructure.gateway;

import com.banhang.shop.payments.application.GatewayOutcomeUnknownException;
import com.banhang.shop.payments.application.GatewayUnavailableException;
import com.banhang.shop.payments.application.PaymentGateway;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;
import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;
import org.eclipse.microprofile.faulttolerance.exceptions.CircuitBreakerOpenException;
import org.eclipse.microprofile.faulttolerance.exceptions.FaultToleranceException;

/**
 * The processor over HTTP. After the tries, a failure means "certainly not charged" only if no try
 * sent a request that may have reached the processor; otherwise the outcome is unknown and left to
 * reconciliation (docs/payments.md, "How gateway failures are classified").
 */
@ApplicationScoped
public class RestPaymentGateway implements PaymentGateway {

  @Inject RetryingGatewayClient client;

  @Override
  public PaymentGateway.Charge charge(PaymentGateway.ChargeRequest request) {
    RetryingGatewayClient.SentRequests sent = new RetryingGatewayClient.SentRequests();
    try {
      return client.charge(request, sent);
    } catch (GatewayCallFailedException | FaultToleranceException e) {
      throw classify(e, sent);
    } catch (GatewayChargeMismatchException e) {
      // A charge under our key that our request did not make: never recorded, left to an operator
      // through reconciliation, which finds the same charge and refuses it too.
      throw new GatewayOutcomeUnknownException(e.getMessage(), e);
    }
  }

  /**
   * What a failed charge call means. A try refused by an open circuit or a full bulkhead was never
   * sent, so those two say "not charged" unless an earlier try may have charged; a timeout, or any
   * other end Fault Tolerance put to the call, comes after a request was sent.
   */
  static RuntimeException classify(
      RuntimeException failure, RetryingGatewayClient.SentRequests sent) {
    boolean refusedBeforeSending =
        failure instanceof CircuitBreakerOpenException || failure instanceof BulkheadException;
    boolean notSentOrRefused =
        failure instanceof GatewayCallFailedException || refusedBeforeSending;
    if (notSentOrRefused && !sent.mayHaveCharged()) {
      return new GatewayUnavailableException(
          refusedBeforeSending
              ? "the processor was not called (" + failure.getClass().getSimpleName() + ")"
              : "the processor refused before charging",
          failure);
    }
    return new GatewayOutcomeUnknownException("the processor did not confirm the charge", failure);
  }

  @Override
  public Optional<PaymentGateway.ChargeDetails> findByKey(String gatewayKey) {
    try {
      return client.findByKey(gatewayKey);
    } catch (GatewayCallFailedException | FaultToleranceException e) {
      throw new GatewayUnavailableException("the processor cannot be asked now", e);
    }
  }

  @Override
  public Optional<PaymentGateway.ChargeDetails> findCharge(String chargeId) {
    try {
      return client.findCharge(chargeId);
    } catch (GatewayCallFailedException | FaultToleranceException e) {
      throw new GatewayUnavailableException("the processor cannot be asked now", e);
    }
  }
}
