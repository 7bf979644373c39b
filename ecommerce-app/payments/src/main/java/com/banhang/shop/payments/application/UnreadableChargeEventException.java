package com.banhang.shop.payments.application;

/**
 * A verified webhook whose body the shop cannot process: not JSON, an event type it does not know,
 * a field missing. The event is kept, parked for an operator, never applied.
 */
public class UnreadableChargeEventException extends Exception {

  private static final long serialVersionUID = 1L;

  public UnreadableChargeEventException(String message) {
    super(message);
  }
}
