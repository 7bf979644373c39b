package com.banhang.shop.payments.application;

import com.banhang.shop.payments.domain.model.Payment;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The card processor, as the payments context needs it. Every call carries the payment's gateway
 * key, so the processor answers a repeated call with the charge it already made. The records below
 * are what crosses the port: what is asked, and what the processor answers.
 */
public interface PaymentGateway {

  /**
   * Charges once per gateway key.
   *
   * @return the charge, succeeded or declined
   * @throws GatewayUnavailableException when the card was certainly not charged
   * @throws GatewayOutcomeUnknownException when it may have been charged (timeout, lost response)
   * @throws GatewayRefusedException when the processor refused the request itself
   */
  Charge charge(ChargeRequest request);

  /**
   * As {@link #charge(ChargeRequest)}, telling {@code failedTries} of every try of this call that
   * failed (a timeout, a 5xx, a refused connection...), once the call has ended, whatever it ended
   * with: the payment timeline shows them, since the retries hide them from the answer. An adapter
   * that does not retry tells nothing.
   */
  default Charge charge(ChargeRequest request, Consumer<FailedTry> failedTries) {
    return charge(request);
  }

  /**
   * One try of a charge call that failed.
   *
   * @param at when the try was sent (or refused before being sent)
   * @param what how it failed, in words: a timeout, the status, a refused connection, and whether
   *     it may have reached the processor
   */
  record FailedTry(Instant at, String what) {}

  /**
   * The charge made under a gateway key, if any, with its amount, currency and order reference: the
   * caller checks that it is its payment's charge ({@link ChargeDetails#differencesFrom}) before
   * recording it.
   *
   * @throws GatewayUnavailableException when the processor cannot be asked now
   */
  Optional<ChargeDetails> findByKey(String gatewayKey);

  /**
   * The charge with this id, whatever key made it and however long ago: how an operator checks a
   * charge id for a payment whose gateway key the processor no longer finds.
   *
   * @return empty when the processor has no charge with this id
   * @throws GatewayUnavailableException when the processor cannot be asked now
   */
  Optional<ChargeDetails> findCharge(String chargeId);

  /** What the processor is asked to charge, under which of its idempotency keys. */
  record ChargeRequest(
      String gatewayKey,
      long amount,
      String currency,
      String orderReference,
      String paymentMethod) {

    /** The request of a payment: all of it is what the attempt committed. */
    public static ChargeRequest of(Payment payment) {
      return new ChargeRequest(
          payment.gatewayKey(),
          payment.amount(),
          payment.currency(),
          payment.orderId(),
          payment.paymentMethod());
    }
  }

  /** A charge the processor made: succeeded (money taken) or declined (nothing taken). */
  record Charge(String chargeId, boolean succeeded) {}

  /**
   * A charge as the processor describes it (found by its id or by its gateway key, or answered to a
   * charge request): enough to check that it is the charge of a given payment before it is
   * recorded.
   *
   * @param chargeId the processor's id, {@code ch_...}
   * @param succeeded true if money was taken, false if the card was declined
   * @param amount in the currency's minor unit
   * @param currency ISO 4217 code
   * @param orderReference the order id the shop sent with the charge
   * @param gatewayKey the idempotency key the charge was created under
   */
  record ChargeDetails(
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
    public Charge charge() {
      return new Charge(chargeId, succeeded);
    }
  }
}
