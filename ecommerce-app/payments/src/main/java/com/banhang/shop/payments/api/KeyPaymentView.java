package com.banhang.shop.payments.api;

import java.time.Instant;

/**
 * A payment as the operator console shows it.
 *
 * @param paymentId the attempt's id
 * @param orderId the order it pays
 * @param amount in the currency's minor unit
 * @param currency ISO 4217 code
 * @param status {@code PENDING}, {@code CAPTURED}, {@code DECLINED} or {@code ABANDONED}
 * @param gatewayKey the idempotency key the shop sends the gateway for it
 * @param gatewayChargeId the gateway's charge id once captured or declined, else null
 * @param createdAt when the attempt was committed
 */
public record KeyPaymentView(
    String paymentId,
    String orderId,
    long amount,
    String currency,
    String status,
    String gatewayKey,
    String gatewayChargeId,
    Instant createdAt) {}
