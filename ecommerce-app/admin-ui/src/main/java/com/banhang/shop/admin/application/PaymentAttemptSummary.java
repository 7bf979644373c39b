package com.banhang.shop.admin.application;

import java.time.Instant;

/** The payment attempt a payments.charge key started, as the detail panel shows it. */
public record PaymentAttemptSummary(
    String paymentId,
    String orderId,
    long amount,
    String currency,
    String status,
    String gatewayKey,
    String gatewayChargeId,
    Instant createdAt) {}
