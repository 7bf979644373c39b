package com.banhang.shop.payments.application;

/** What the processor is asked to charge, under which of its idempotency keys. */
public record GatewayChargeRequest(
    String gatewayKey, long amount, String currency, String orderReference, String paymentMethod) {}
