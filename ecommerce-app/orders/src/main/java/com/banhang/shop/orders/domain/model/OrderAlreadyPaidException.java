package com.banhang.shop.orders.domain.model;

/** Order {@code orderId} is already paid. */
public class OrderAlreadyPaidException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public OrderAlreadyPaidException(String orderId) {
    super(String.format("Order %s is already paid", orderId));
  }
}
