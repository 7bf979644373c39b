package com.banhang.shop.payments.api;

import java.time.Instant;

/**
 * "Ask the gateway now": the processor's view of a payment, by its gateway key, beside the shop's.
 * Read-only: nothing is recorded or changed (the console audits the read). Implemented in the
 * application layer.
 */
public interface GatewayLookup {

  /**
   * Asks the gateway for the charge made under the payment's gateway key.
   *
   * @return {@link GatewayAnswer.Finding#NO_SUCH_PAYMENT} when the shop has no payment {@code
   *     paymentId}; never throws for an unreachable gateway ({@link
   *     GatewayAnswer.Finding#UNAVAILABLE})
   */
  GatewayAnswer ask(String paymentId);

  /**
   * What the gateway said about a gateway key.
   *
   * @param finding what it amounts to for the shop's payment
   * @param chargeId the charge found, or null
   * @param amount the charge's amount in the currency's minor unit, or 0
   * @param currency the charge's currency, or null
   * @param orderReference the order the charge was made for, or null
   * @param detail one sentence for the operator: what was asked and answered, and any difference
   *     from the shop's payment
   * @param askedAt when the gateway was asked
   */
  record GatewayAnswer(
      Finding finding,
      String chargeId,
      long amount,
      String currency,
      String orderReference,
      String detail,
      Instant askedAt) {

    /** The gateway's answer as the shop reads it. */
    public enum Finding {
      /** A succeeded charge of exactly this payment: the customer was charged. */
      CHARGED,
      /** A declined charge of this payment: nothing taken. */
      DECLINED,
      /** No charge under the key (within the gateway's key retention). */
      NOT_FOUND,
      /** A charge under the key that is not this payment's (amount, currency or order differ). */
      MISMATCH,
      /** The gateway could not be asked now. */
      UNAVAILABLE,
      /** The shop has no such payment. */
      NO_SUCH_PAYMENT
    }
  }
}
