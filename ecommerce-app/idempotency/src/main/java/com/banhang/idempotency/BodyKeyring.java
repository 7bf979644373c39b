package com.banhang.idempotency;

import com.banhang.idempotency.jdbc.ResponseBodyCipher;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;

/**
 * The keys that encrypt stored response bodies at rest, read from MicroProfile Config
 * (docs/idempotency.md, "Stored bodies encrypted at rest"; docs/configuration.md):
 *
 * <ul>
 *   <li>{@value #KEYS}: comma-separated {@code keyId:base64Key} entries; a key id is 1 to 32
 *       letters, digits, '.', '-' or '_', a key is Base64 of 32 bytes.
 *   <li>{@value #KEY_ID}: the id of the key that seals new bodies. Optional when the ring holds
 *       exactly one key; required when it holds more.
 *   <li>{@value #LEGACY_KEY}: the single key of earlier versions; it joins the ring under the id
 *       {@value ResponseBodyCipher#LEGACY_KEY_ID}, which also opens bodies sealed before key ids
 *       existed.
 * </ul>
 *
 * <p>{@link #validate(Config)} is the hook a production start-up check calls: production must run
 * with a key.
 */
public final class BodyKeyring {

  public static final String KEYS = "idempotency.body-keys";
  public static final String KEY_ID = "idempotency.body-key-id";
  public static final String LEGACY_KEY = "idempotency.body-encryption-key";

  private BodyKeyring() {}

  /**
   * Checks that body encryption is configured and usable: at least one key, every entry well
   * formed, and the sealing key id in the ring. Call it at start-up where encryption is required
   * (production). Messages name properties and key ids, never key material.
   *
   * @return the id of the key that seals new bodies
   * @throws IllegalStateException when no key is configured or the configuration is invalid
   */
  public static String validate(Config config) {
    ResponseBodyCipher cipher;
    try {
      cipher = cipher(config);
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException("invalid body encryption configuration: " + e.getMessage());
    }
    if (!cipher.encrypts()) {
      throw new IllegalStateException(
          "no body encryption key: set " + KEYS + " (and " + KEY_ID + ") or " + LEGACY_KEY);
    }
    return cipher.sealingKeyId();
  }

  /**
   * The cipher for the configured ring; {@link ResponseBodyCipher#NONE} when no key is configured.
   *
   * @throws IllegalArgumentException when the configuration is invalid
   */
  public static ResponseBodyCipher cipher(Config config) {
    return cipher(value(config, KEYS), value(config, KEY_ID), value(config, LEGACY_KEY));
  }

  /** The same from the three raw values (each may be absent or blank). */
  public static ResponseBodyCipher cipher(
      Optional<String> keys, Optional<String> keyId, Optional<String> legacyKey) {
    Map<String, String> ring = new LinkedHashMap<>();
    keys.filter(v -> !v.isBlank())
        .ifPresent(
            value -> {
              for (String entry : value.split(",", -1)) {
                String trimmed = entry.strip();
                int colon = trimmed.indexOf(':');
                if (colon <= 0) {
                  throw new IllegalArgumentException(
                      KEYS + " must be comma-separated keyId:base64Key entries");
                }
                String id = trimmed.substring(0, colon).strip();
                if (ring.putIfAbsent(id, trimmed.substring(colon + 1).strip()) != null) {
                  throw new IllegalArgumentException(KEYS + " names the key id " + id + " twice");
                }
              }
            });
    legacyKey
        .filter(v -> !v.isBlank())
        .ifPresent(
            value -> {
              if (ring.putIfAbsent(ResponseBodyCipher.LEGACY_KEY_ID, value) != null) {
                throw new IllegalArgumentException(
                    LEGACY_KEY
                        + " is the key id "
                        + ResponseBodyCipher.LEGACY_KEY_ID
                        + ", which "
                        + KEYS
                        + " also names");
              }
            });
    Optional<String> sealing = keyId.map(String::strip).filter(v -> !v.isEmpty());
    if (ring.isEmpty()) {
      if (sealing.isPresent()) {
        throw new IllegalArgumentException(KEY_ID + " is set but no key is configured");
      }
      return ResponseBodyCipher.NONE;
    }
    if (sealing.isEmpty() && ring.size() > 1) {
      throw new IllegalArgumentException(
          "the body keyring holds " + ring.keySet() + ": set " + KEY_ID + " to the sealing one");
    }
    return ResponseBodyCipher.keyring(ring, sealing.orElse(ring.keySet().iterator().next()));
  }

  private static Optional<String> value(Config config, String name) {
    return config.getOptionalValue(name, String.class);
  }
}
