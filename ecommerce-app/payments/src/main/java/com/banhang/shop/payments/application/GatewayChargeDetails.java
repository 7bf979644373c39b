package com.banhang.shop.payments.application;

/**
 * A charge as the processor describes it when asked by its id: enough to check that it is the
 * charge of a given payment before an operator records it.
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
    String gatewayKey) {}
