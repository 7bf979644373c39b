package com.banhang.events.webhooks;

/**
 * A received webhook that is not to be trusted: a header is missing, its timestamp is outside the
 * tolerance window, its body is not what was signed, or no signature matches a known secret. The
 * receiver answers it with a 4xx and does nothing; the message says which check failed.
 */
public class RefusedWebhookException extends Exception {

  private static final long serialVersionUID = 1L;

  public RefusedWebhookException(String message) {
    super(message);
  }
}
