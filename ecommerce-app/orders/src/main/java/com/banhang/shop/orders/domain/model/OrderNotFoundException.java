package com.banhang.shop.orders.domain.model;

/** No order {@code orderId} for this customer. */
public class OrderNotFoundException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public OrderNotFoundException(String orderId) {
    super(String.format("No order %s for this customer", orderId));
  }
}
