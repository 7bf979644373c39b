package com.banhang.gateway.sandbox.webhook;

import com.standardwebhooks.Webhook;
import com.standardwebhooks.exceptions.EmptyWebhookSecretException;
import com.standardwebhooks.exceptions.WebhookSigningException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * Signs a delivery as the Standard Webhooks specification says, with the specification's own Java
 * library: headers {@code webhook-id}, {@code webhook-timestamp} (seconds) and {@code
 * webhook-signature}, {@code v1,} and the base64 HMAC-SHA256 of {@code id.timestamp.body} under the
 * secret. With several secrets (a rotation) the header carries one signature per secret, separated
 * by spaces, so that a shop that knows either secret accepts the delivery.
 */
public final class StandardWebhookSigner {

  public static final String WEBHOOK_ID = "webhook-id";
  public static final String WEBHOOK_TIMESTAMP = "webhook-timestamp";
  public static final String WEBHOOK_SIGNATURE = "webhook-signature";

  /** The specification's prefix of a secret. */
  static final String SECRET_PREFIX = "whsec_";

  /** The specification asks for secrets of 24 to 64 random bytes. */
  static final int MIN_SECRET_BYTES = 24;

  static final int MAX_SECRET_BYTES = 64;

  private final List<Webhook> keys;

  private StandardWebhookSigner(List<Webhook> keys) {
    this.keys = List.copyOf(keys);
  }

  /**
   * A signer with each of {@code secrets} ({@code whsec_} and the base64 of 24 to 64 bytes).
   *
   * @throws InvalidWebhookSettingsException naming the position of a bad secret, never its value
   */
  public static StandardWebhookSigner of(List<String> secrets) {
    if (secrets.isEmpty()) {
      throw new InvalidWebhookSettingsException(
          "sandbox.webhooks.secrets: at least one whsec_ secret is needed to sign");
    }
    List<Webhook> keys = new ArrayList<>();
    for (int i = 0; i < secrets.size(); i++) {
      keys.add(key(secrets.get(i), "sandbox.webhooks.secrets: secret " + (i + 1)));
    }
    return new StandardWebhookSigner(keys);
  }

  private static Webhook key(String secret, String position) {
    if (!secret.startsWith(SECRET_PREFIX)) {
      throw new InvalidWebhookSettingsException(position + " does not start with " + SECRET_PREFIX);
    }
    byte[] bytes;
    try {
      bytes = Base64.getDecoder().decode(secret.substring(SECRET_PREFIX.length()));
    } catch (IllegalArgumentException e) {
      throw new InvalidWebhookSettingsException(position + " is not base64 after " + SECRET_PREFIX);
    }
    if (bytes.length < MIN_SECRET_BYTES || bytes.length > MAX_SECRET_BYTES) {
      throw new InvalidWebhookSettingsException(
          position
              + " has "
              + bytes.length
              + " bytes; the specification asks for "
              + MIN_SECRET_BYTES
              + " to "
              + MAX_SECRET_BYTES);
    }
    try {
      return new Webhook(bytes);
    } catch (EmptyWebhookSecretException e) {
      throw new InvalidWebhookSettingsException(position + " is empty");
    }
  }

  /** How many secrets sign each delivery. */
  public int secrets() {
    return keys.size();
  }

  /**
   * The three headers of a delivery of {@code body} as message {@code id} at {@code
   * timestampSeconds}, in the order the specification lists them.
   */
  public Map<String, String> headers(String id, long timestampSeconds, String body) {
    StringJoiner signatures = new StringJoiner(" ");
    for (Webhook key : keys) {
      try {
        signatures.add(key.sign(id, timestampSeconds, body));
      } catch (WebhookSigningException e) {
        // HmacSHA256 is in every Java runtime: this is a broken runtime, not a bad input.
        throw new IllegalStateException("cannot sign a webhook: " + e.getMessage(), e);
      }
    }
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put(WEBHOOK_ID, id);
    headers.put(WEBHOOK_TIMESTAMP, Long.toString(timestampSeconds));
    headers.put(WEBHOOK_SIGNATURE, signatures.toString());
    return headers;
  }

  @Override
  public String toString() {
    // Never the secrets.
    return keys.size() + " secret(s)";
  }
}
