package com.banhang.shop.payments.application;

/**
 * A webhook delivery while the shop has no webhook secret configured: webhooks are off, and the
 * endpoint answers 404 ({@code gateway-webhooks-off}) as if it did not exist.
 */
public class GatewayWebhooksOffException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public GatewayWebhooksOffException() {
    super("the shop receives no webhooks from the processor: none are configured");
  }
}
