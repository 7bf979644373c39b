package com.banhang.shop.orders.domain.model;

/**
 * The merchant order id of a new order is already used by another order of this customer.
 *
 * <p>The message does not name the id: the id comes from the request's body, and bodies stay out of
 * the logs, while an exception's message does not (Liberty's FFDC records every exception that
 * leaves a {@code @Transactional} method, message included). The client knows the id it sent.
 */
public class MerchantOrderIdTakenException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public MerchantOrderIdTakenException() {
    super("This merchant order id is already used by another order of this customer");
  }
}
