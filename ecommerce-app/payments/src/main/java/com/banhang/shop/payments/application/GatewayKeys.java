package com.banhang.shop.payments.application;

import com.banhang.idempotency.ClaimedKey;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.eclipse.microprofile.config.Config;

/**
 * Derives the gateway key of a payment (docs/payments.md, "Gateway key"): {@code banhang_} and 48
 * hex digits of an HMAC-SHA256, keyed with the server secret {@value #SECRET_PROPERTY}, over the
 * tenant, the operation, the client's Idempotency-Key and the request's fingerprint (order, amount,
 * currency, payment method, the whole of what is sent to the processor).
 *
 * <ul>
 *   <li>A client cannot compute it, so it cannot create a charge under a payment's gateway key at
 *       the processor ahead of the shop (or after it) to have that charge recorded.
 *   <li>The same key with the same request gives the same gateway key on every try, retry, claim
 *       after a release and reconciliation, so the processor deduplicates them; a released key
 *       reused with another body gets another gateway key instead of a refusal or a replay of the
 *       earlier request's charge.
 * </ul>
 *
 * <p>There is no default secret. A missing secret, one that is not base64 or shorter than {@value
 * #MIN_SECRET_BYTES} bytes fails the first payment with a message naming the property; {@link
 * #validate(Config)} checks it the same way for a start-up check.
 */
@ApplicationScoped
public class GatewayKeys {

  /** The configuration property holding the secret, base64. */
  public static final String SECRET_PROPERTY = "payments.gateway-key-secret";

  /** The shortest secret accepted, in bytes after base64 decoding: as long as the HMAC's output. */
  public static final int MIN_SECRET_BYTES = 32;

  /** Prefix of gateway keys, so the processor's logs show where a key came from. */
  public static final String PREFIX = "banhang_";

  private static final String ALGORITHM = "HmacSHA256";

  /** Versions the derivation: a new scheme must never produce an old key by accident. */
  private static final String VERSION = "gateway-key-v2";

  @Inject Config config;

  private volatile SecretKeySpec secret;

  /** For CDI. */
  public GatewayKeys() {}

  /** With the secret given (tests, tools); the same rules as the configured one. */
  public static GatewayKeys withSecret(String base64Secret) {
    GatewayKeys keys = new GatewayKeys();
    keys.secret = secretOf(Optional.ofNullable(base64Secret));
    return keys;
  }

  /**
   * Checks the configured secret without deriving anything: for a start-up check that lists every
   * missing production secret.
   *
   * @throws InvalidGatewayKeySecretException when {@value #SECRET_PROPERTY} is missing, not base64
   *     or shorter than {@value #MIN_SECRET_BYTES} bytes; the message names the property and never
   *     contains the value
   */
  public static void validate(Config config) {
    secretOf(config.getOptionalValue(SECRET_PROPERTY, String.class));
  }

  /**
   * The gateway key of a payment of {@code claim} with this request.
   *
   * @throws InvalidGatewayKeySecretException when the secret is not configured correctly
   */
  public String derive(
      ClaimedKey claim, String orderId, long amount, String currency, String paymentMethod) {
    try {
      Mac mac = Mac.getInstance(ALGORITHM);
      mac.init(secret());
      for (String part :
          new String[] {
            VERSION,
            claim.tenant(),
            claim.operation(),
            claim.key(),
            orderId,
            Long.toString(amount),
            currency,
            paymentMethod
          }) {
        byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
        mac.update(ByteBuffer.allocate(4).putInt(bytes.length).array());
        mac.update(bytes);
      }
      return PREFIX + HexFormat.of().formatHex(mac.doFinal(), 0, 24);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(ALGORITHM + " is required by every Java platform", e);
    }
  }

  private SecretKeySpec secret() {
    SecretKeySpec current = secret;
    if (current == null) {
      current = secretOf(config.getOptionalValue(SECRET_PROPERTY, String.class));
      secret = current;
    }
    return current;
  }

  private static SecretKeySpec secretOf(Optional<String> value) {
    if (value.isEmpty() || value.get().isBlank()) {
      throw new InvalidGatewayKeySecretException(
          SECRET_PROPERTY
              + " is not set: payments need a server secret to derive gateway keys; set it (or"
              + " PAYMENTS_GATEWAY_KEY_SECRET) to the base64 of at least "
              + MIN_SECRET_BYTES
              + " random bytes, e.g. the output of `openssl rand -base64 32`");
    }
    byte[] bytes;
    try {
      bytes = Base64.getDecoder().decode(value.get().trim());
    } catch (IllegalArgumentException e) {
      throw new InvalidGatewayKeySecretException(
          SECRET_PROPERTY + " is not valid base64 (the value is not shown)");
    }
    if (bytes.length < MIN_SECRET_BYTES) {
      throw new InvalidGatewayKeySecretException(
          SECRET_PROPERTY
              + " is too short: "
              + bytes.length
              + " bytes after base64 decoding, at least "
              + MIN_SECRET_BYTES
              + " are needed");
    }
    return new SecretKeySpec(bytes, ALGORITHM);
  }
}
