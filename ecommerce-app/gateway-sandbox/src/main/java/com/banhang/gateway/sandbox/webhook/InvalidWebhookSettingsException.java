package com.banhang.gateway.sandbox.webhook;

/**
 * A webhook setting the sandbox cannot work with (a URL that is not http(s), a malformed secret, a
 * timeout out of range); stops the application at start-up. Never carries a secret's value.
 */
public class InvalidWebhookSettingsException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  public InvalidWebhookSettingsException(String message) {
    super(message);
  }
}
