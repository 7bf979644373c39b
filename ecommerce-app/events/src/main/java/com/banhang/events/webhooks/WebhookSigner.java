package com.banhang.events.webhooks;

import com.standardwebhooks.Webhook;
import com.standardwebhooks.exceptions.EmptyWebhookSecretException;
import com.standardwebhooks.exceptions.WebhookSigningException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.StringJoiner;

/**
 * Signs a webhook with each of an endpoint's secrets (the Standard Webhooks library computes each
 * {@code v1,<signature>}). During a rotation an endpoint has the old and the new secret, and the
 * {@code webhook-signature} header carries both signatures, space-separated, so that a subscriber
 * that knows either accepts it. The secrets are never kept as text nor shown.
 */
public final class WebhookSigner {

  /** The shortest secret accepted: the specification asks for 24 to 64 random bytes. */
  static final int MIN_SECRET_BYTES = 24;

  private static final String PREFIX = "whsec_";

  private final List<Webhook> keys;

  private WebhookSigner(List<Webhook> keys) {
    this.keys = List.copyOf(keys);
  }

  /**
   * A signer with every secret of {@code secrets}, each {@code whsec_} and the base64 of the key.
   *
   * @throws IllegalArgumentException naming the position of a secret that is malformed or short,
   *     never its value
   */
  static WebhookSigner of(List<String> secrets) {
    if (secrets.isEmpty()) {
      throw new IllegalArgumentException("no secret");
    }
    List<Webhook> keys = new ArrayList<>();
    for (int i = 0; i < secrets.size(); i++) {
      String secret = secrets.get(i);
      String position = "secret " + (i + 1) + " of " + secrets.size();
      if (!secret.startsWith(PREFIX)) {
        throw new IllegalArgumentException(position + " does not start with " + PREFIX);
      }
      byte[] key;
      try {
        key = Base64.getDecoder().decode(secret.substring(PREFIX.length()));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(position + " is not base64 after " + PREFIX);
      }
      if (key.length < MIN_SECRET_BYTES) {
        throw new IllegalArgumentException(
            position + " has " + key.length + " bytes, fewer than " + MIN_SECRET_BYTES);
      }
      try {
        keys.add(new Webhook(key));
      } catch (EmptyWebhookSecretException e) {
        throw new IllegalArgumentException(position + " is empty");
      }
    }
    return new WebhookSigner(keys);
  }

  /**
   * The {@code webhook-signature} value of {@code body} sent as message {@code id} at {@code
   * timestamp}.
   */
  String signature(String id, long timestamp, String body) {
    StringJoiner signatures = new StringJoiner(" ");
    for (Webhook key : keys) {
      try {
        signatures.add(key.sign(id, timestamp, body));
      } catch (WebhookSigningException e) {
        // HmacSHA256 is in every JDK; this means a broken runtime, not a bad input.
        throw new IllegalStateException("cannot sign a webhook: " + e.getMessage(), e);
      }
    }
    return signatures.toString();
  }

  int secrets() {
    return keys.size();
  }

  @Override
  public String toString() {
    return keys.size() + " secret(s)";
  }
}
