package com.banhang.shop.orders.domain.model;

/** Merchant order id {@code merchantOrderId} is already used by another order of this customer. */
public class MerchantOrderIdTakenException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public MerchantOrderIdTakenException(String merchantOrderId) {
    super(
        String.format(
            "Merchant order id %s is already used by another order of this customer",
            merchantOrderId));
  }
}
