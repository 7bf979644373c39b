package com.banhang.shop.orders.domain.model;

/** An order waits for its payment, then is paid; nothing else happens to it yet. */
public enum OrderStatus {
  PENDING_PAYMENT,
  PAID
}
