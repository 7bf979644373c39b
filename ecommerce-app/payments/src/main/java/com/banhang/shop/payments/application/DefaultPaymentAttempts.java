package com.banhang.shop.payments.application;

import com.banhang.idempotency.IdempotencyKeys;
import com.banhang.shop.payments.api.PaymentAttemptView;
import com.banhang.shop.payments.api.PaymentAttempts;
import com.banhang.shop.payments.domain.model.Payment;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;

/** Read-only: the payment attempt behind a payments.charge key, for the operator console. */
@ApplicationScoped
public class DefaultPaymentAttempts implements PaymentAttempts {

  @Inject IdempotencyKeys keys;
  @Inject PaymentService payments;

  /**
   * The attempt started by the key's current claim (whatever the key's state), or empty when there
   * is no such key or its current claim committed no attempt (then nothing was sent to the
   * gateway). Attempts of earlier, released claims of the key are not shown: they are settled.
   */
  @Override
  public Optional<PaymentAttemptView> attemptForKey(String tenant, String key) {
    return keys.find(tenant, PayOrder.OPERATION, key)
        .flatMap(record -> payments.attemptOf(record.claimedKey()))
        .map(DefaultPaymentAttempts::view);
  }

  static PaymentAttemptView view(Payment payment) {
    return new PaymentAttemptView(
        payment.id(),
        payment.orderId(),
        payment.amount(),
        payment.currency(),
        payment.status().name(),
        payment.gatewayKey(),
        payment.gatewayChargeId(),
        payment.createdAt().toInstant());
  }
}
