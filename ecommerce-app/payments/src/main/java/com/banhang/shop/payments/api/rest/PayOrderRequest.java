package com.banhang.shop.payments.api.rest;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;

/**
 * Body of {@code POST /api/v1/orders/{orderId}/payments}. The amount is in the currency's minor
 * unit and must equal the order's total; the payment method is a processor token, never card data.
 */
public record PayOrderRequest(
    @NotNull @Positive Long amount,
    @NotNull @Pattern(regexp = "[A-Z]{3}", message = "must be an ISO 4217 code such as VND")
        String currency,
    @NotNull
        @Size(max = 100)
        @Pattern(
            regexp = "pm_[A-Za-z0-9_]+",
            message = "must be a payment-method token such as pm_card_ok")
        String paymentMethod) {}
