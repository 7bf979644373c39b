package com.banhang.shop.payments.application;

import com.banhang.shop.payments.domain.model.Payment;
import java.util.ArrayList;
import java.util.List;

/**
 * A charge as the processor describes it (found by its id or by its gateway key, or answered to a
 * charge request): enough to check that it is the charge of a given payment before it is recorded.
 *
 * @param chargeId the processor's id, {@code ch_...}
 * @param succeeded true if money was taken, false if the card was declined
 * @param amount in the currency's minor unit
 * @param currency ISO 4217 code
 * @param orderReference the order id the shop sent with the charge
 * @param gatewayKey the idempotency key the charge was created under
 */
public record GatewayChargeDetails(
    String chargeId,
    boolean succeeded,
    long amount,
    String currency,
    String orderReference,
    String gatewayKey) {

  /**
   * How this charge differs from what {@code payment} asked for: its amount, currency and order
   * reference (what the shop sends as {@code orderReference}: the order id). Empty when it is the
   * payment's charge. A charge found under the payment's gateway key that differs was not made by
   * this payment's request (docs/payments.md, "Reconciliation"): it is never recorded as the
   * payment's.
   */
  public List<String> differencesFrom(Payment payment) {
    List<String> differences = new ArrayList<>();
    if (amount != payment.amount()) {
      differences.add("its amount is " + amount + ", the payment's is " + payment.amount());
    }
    if (!payment.currency().equals(currency)) {
      differences.add("its currency is " + currency + ", the payment's is " + payment.currency());
    }
    if (!payment.orderId().equals(orderReference)) {
      differences.add(
          "it was made for order "
              + orderReference
              + ", the payment is for order "
              + payment.orderId());
    }
    return differences;
  }

  /** The charge as the payment records it. */
  public GatewayCharge charge() {
    return new GatewayCharge(chargeId, succeeded);
  }
}
