package com.banhang.shop.client;

import java.util.Objects;

/**
 * The body of {@code POST /api/v1/orders/{orderId}/payments} (docs/contract.md, section 10).
 *
 * @param amount the order's {@code total}, in the currency's smallest unit
 * @param currency the order's currency
 * @param paymentMethod a processor token such as {@code pm_card_ok}, never card data
 */
public record PaymentRequest(long amount, String currency, String paymentMethod) {
  public PaymentRequest {
    Objects.requireNonNull(currency, "currency");
    Objects.requireNonNull(paymentMethod, "paymentMethod");
  }
}
