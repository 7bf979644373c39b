package com.banhang.shop.payments.application;

import com.banhang.idempotency.ClaimedKey;
import com.banhang.idempotency.IdempotencyKeys;
import com.banhang.shop.payments.api.KeyPaymentView;
import com.banhang.shop.payments.api.KeyPayments;
import com.banhang.shop.payments.domain.model.Payment;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;

/** Read-only: the payment behind a payments.charge key, for the operator console. */
@ApplicationScoped
public class DefaultKeyPayments implements KeyPayments {

  @Inject IdempotencyKeys keys;
  @Inject PaymentService payments;

  /**
   * The attempt started by the key's current claim (whatever the key's state), or empty when there
   * is no such key or its current claim committed no attempt (then nothing was sent to the
   * gateway). Attempts of earlier, released claims of the key are not shown: they are settled.
   */
  @Override
  public Optional<KeyPaymentView> paymentOfKey(String tenant, String key) {
    return keys.find(tenant, PayOrder.OPERATION, key)
        .flatMap(record -> payments.paymentOf(record.claimedKey()))
        .map(DefaultKeyPayments::view);
  }

  @Override
  public Optional<KeyPaymentView> paymentOfClaim(String tenant, String key, int attempt) {
    return payments
        .paymentOf(new ClaimedKey(tenant, PayOrder.OPERATION, key, attempt))
        .map(DefaultKeyPayments::view);
  }

  static KeyPaymentView view(Payment payment) {
    return new KeyPaymentView(
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
