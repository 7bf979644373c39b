package com.banhang.shop.payments.application;

import com.banhang.idempotency.ClaimedKey;

/** A customer's request to pay an order, with the claim of its Idempotency-Key. */
public record StartPaymentCommand(
    String tenantId,
    String orderId,
    long amount,
    String currency,
    String paymentMethod,
    ClaimedKey claim) {}
