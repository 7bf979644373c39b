package com.banhang.events.webhooks;

import java.time.Instant;

/**
 * A received webhook whose signature checked out ({@link StandardWebhookVerification#check}).
 *
 * @param id its {@code webhook-id}, the key to handle it once
 * @param signedAt its {@code webhook-timestamp}
 * @param secret which of the receiver's secrets signed it, counted from 1 in the order configured:
 *     during a rotation, the operator sees when the old one stops being used
 * @param secrets how many secrets the receiver knows
 * @param body its body, as the UTF-8 text that was signed
 */
public record VerifiedWebhook(String id, Instant signedAt, int secret, int secrets, String body) {

  /** The verification in words, for an operator. */
  public String describe() {
    return "signature verified with secret "
        + secret
        + " of "
        + secrets
        + ", signed at "
        + signedAt;
  }
}
