package com.banhang.shop.payments.api;

import java.time.Instant;

/**
 * One payment attempt as the operator console shows it.
 *
 * @param paymentId the attempt's id
 * @param tenantId the customer (tenant) who pays
 * @param orderId the order it pays
 * @param amount in the currency's minor unit
 * @param currency ISO 4217 code
 * @param status {@code PENDING}, {@code CAPTURED}, {@code DECLINED} or {@code ABANDONED}
 * @param gatewayKey the idempotency key the shop sends the gateway for it
 * @param gatewayChargeId the gateway's charge id once captured or declined, else null
 * @param idempotencyKey the customer's Idempotency-Key of payments.charge
 * @param attempt the claim of that key that started this attempt
 * @param lateCharge the late-charge sweep's finding, or null
 * @param createdAt when the attempt was committed
 * @param updatedAt its last change
 */
public record PaymentRecord(
    String paymentId,
    String tenantId,
    String orderId,
    long amount,
    String currency,
    String status,
    String gatewayKey,
    String gatewayChargeId,
    String idempotencyKey,
    int attempt,
    String lateCharge,
    Instant createdAt,
    Instant updatedAt) {}
