package com.banhang.shop.payments.application;

/**
 * A webhook delivery not to be trusted: a signature header missing, a timestamp outside the
 * tolerance window, a body that is not what was signed, no signature of a known secret. Answered
 * 400 ({@code webhook-refused}); nothing is kept.
 */
public class GatewayWebhookRefusedException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public GatewayWebhookRefusedException(String why) {
    super("the webhook was refused: " + why);
  }
}
