package com.banhang.shop.payments.infrastructure.gateway;

import com.banhang.shop.payments.application.GatewayCharge;
import com.banhang.shop.payments.application.GatewayChargeDetails;
import com.banhang.shop.payments.application.GatewayChargeRequest;
import com.banhang.shop.payments.application.GatewayOutcomeUnknownException;
import com.banhang.shop.payments.application.GatewayUnavailableException;
import com.banhang.shop.payments.application.PaymentGateway;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.microprofile.faulttolerance.exceptions.FaultToleranceException;

/**
 * The processor over HTTP. After the retries, a failure means "certainly not charged" only if no
 * call may have reached the processor; otherwise the outcome is unknown and left to reconciliation.
 */
@ApplicationScoped
public class RestPaymentGateway implements PaymentGateway {

  @Inject GatewayCalls calls;

  @Override
  public GatewayCharge charge(GatewayChargeRequest request) {
    AtomicBoolean mayHaveCharged = new AtomicBoolean();
    try {
      return calls.charge(
          request, failure -> mayHaveCharged.compareAndSet(false, failure.mayHaveCharged()));
    } catch (GatewayCallFailedException | FaultToleranceException e) {
      if (mayHaveCharged.get() || e instanceof FaultToleranceException) {
        throw new GatewayOutcomeUnknownException("the processor did not confirm the charge", e);
      }
      throw new GatewayUnavailableException("the processor refused before charging", e);
    }
  }

  @Override
  public Optional<GatewayCharge> findByKey(String gatewayKey) {
    try {
      return calls.findByKey(gatewayKey);
    } catch (GatewayCallFailedException | FaultToleranceException e) {
      throw new GatewayUnavailableException("the processor cannot be asked now", e);
    }
  }

  @Override
  public Optional<GatewayChargeDetails> findCharge(String chargeId) {
    try {
      return calls.findCharge(chargeId);
    } catch (GatewayCallFailedException | FaultToleranceException e) {
      throw new GatewayUnavailableException("the processor cannot be asked now", e);
    }
  }
}
