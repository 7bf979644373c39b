package com.banhang.shop.payments.application;

import java.util.Optional;

/**
 * The card processor, as the payments context needs it. Every call carries the payment's gateway
 * key, so the processor answers a repeated call with the charge it already made.
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
  GatewayCharge charge(GatewayChargeRequest request);

  /**
   * The charge made under a gateway key, if any, with its amount, currency and order reference: the
   * caller checks that it is its payment's charge ({@link GatewayChargeDetails#differencesFrom})
   * before recording it.
   *
   * @throws GatewayUnavailableException when the processor cannot be asked now
   */
  Optional<GatewayChargeDetails> findByKey(String gatewayKey);

  /**
   * The charge with this id, whatever key made it and however long ago: how an operator checks a
   * charge id for a payment whose gateway key the processor no longer finds.
   *
   * @return empty when the processor has no charge with this id
   * @throws GatewayUnavailableException when the processor cannot be asked now
   */
  Optional<GatewayChargeDetails> findCharge(String chargeId);
}
