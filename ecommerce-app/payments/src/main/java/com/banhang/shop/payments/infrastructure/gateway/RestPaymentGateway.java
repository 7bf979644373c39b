package com.banhang.shop.payments.infrastructure.gateway;

import com.banhang.shop.payments.application.GatewayOutcomeUnknownException;
import com.banhang.shop.payments.application.GatewayUnavailableException;
import com.banhang.shop.payments.application.PaymentGateway;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;
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

  private static final Logger LOG = Logger.getLogger(RestPaymentGateway.class.getName());

  @Inject RetryingGatewayClient client;

  @Override
  public PaymentGateway.Charge charge(PaymentGateway.ChargeRequest request) {
    return charge(request, failed -> {});
  }

  /**
   * The tries that failed are told after the call, from the call's side channel ({@link
   * RetryingGatewayClient.SentRequests}): Fault Tolerance keeps them from the caller otherwise.
   */
  @Override
  public PaymentGateway.Charge charge(
      PaymentGateway.ChargeRequest request, Consumer<PaymentGateway.FailedTry> failedTries) {
    RetryingGatewayClient.SentRequests sent = new RetryingGatewayClient.SentRequests();
    RuntimeException failure = null;
    try {
      return client.charge(request, sent);
    } catch (GatewayCallFailedException | FaultToleranceException e) {
      failure = e;
      throw classify(e, sent);
    } catch (GatewayChargeMismatchException e) {
      // A charge under our key that our request did not make: never recorded, left to an operator
      // through reconciliation, which finds the same charge and refuses it too.
      throw new GatewayOutcomeUnknownException(e.getMessage(), e);
    } finally {
      tell(failedTries, sent.failedTries(failure));
    }
  }

  /**
   * Telling the caller of the failed tries must never change what the call answered: a listener
   * that throws is logged.
   */
  private static void tell(
      Consumer<PaymentGateway.FailedTry> failedTries, List<PaymentGateway.FailedTry> tries) {
    for (PaymentGateway.FailedTry failed : tries) {
      try {
        failedTries.accept(failed);
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "a listener of the gateway's failed tries failed; ignored", e);
      }
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
