package com.banhang.gateway.sandbox.charge;

import java.time.Instant;

/**
 * A charge as stored: the decision of the processor for one idempotency key.
 *
 * @param id {@code ch_} followed by random characters
 * @param status succeeded or declined
 * @param amount in the currency's minor unit
 * @param currency ISO 4217 code
 * @param orderReference the merchant's reference of the order
 * @param paymentMethod the payment method token that was charged
 * @param idempotencyKey the key the charge was created under
 * @param requestHash fingerprint of the request, to tell a replay from a reused key
 * @param createdAt when the charge was committed (millisecond precision, as stored)
 */
public record Charge(
    String id,
    ChargeStatus status,
    long amount,
    String currency,
    String orderReference,
    String paymentMethod,
    String idempotencyKey,
    String requestHash,
    Instant createdAt) {}
