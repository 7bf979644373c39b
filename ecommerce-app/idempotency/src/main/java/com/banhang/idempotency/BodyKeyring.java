package com.banhang.idempotency;

import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;
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
 *       {@value #LEGACY_KEY_ID}, which also opens bodies sealed before key ids existed.
 * </ul>
 *
 * <p>{@link #validate(Config)} is the hook a production start-up check calls: production must run
 * with a key. An instance is a checked ring (every id well formed, every key 32 bytes, the sealing
 * id in the ring); the store's cipher is made from it, so that the configuration is read and
 * checked in one place, which a start-up check and the store share.
 */
public final class BodyKeyring {

  public static final String KEYS = "idempotency.body-keys";
  public static final String KEY_ID = "idempotency.body-key-id";
  public static final String LEGACY_KEY = "idempotency.body-encryption-key";

  /** The id of the single key of {@value #LEGACY_KEY}, and of bodies sealed before key ids. */
  public static final String LEGACY_KEY_ID = "legacy";

  /** What a key id may be: 1 to 32 letters, digits, dots, dashes or underscores. */
  public static final Pattern KEY_ID_FORMAT = Pattern.compile("[A-Za-z0-9._-]{1,32}");

  /** No key: bodies are stored as they are. */
  public static final BodyKeyring NONE = new BodyKeyring(Map.of(), null);

  private final Map<String, SecretKey> keys;
  private final String sealingKeyId;

  private BodyKeyring(Map<String, SecretKey> keys, String sealingKeyId) {
    this.keys = keys;
    this.sealingKeyId = sealingKeyId;
  }

  /**
   * Checks that body encryption is configured and usable: at least one key, every entry well
   * formed, and the sealing key id in the ring. Call it at start-up where encryption is required
   * (production). Messages name properties and key ids, never key material.
   *
   * @return the id of the key that seals new bodies
   * @throws IllegalStateException when no key is configured or the configuration is invalid
   */
  public static String validate(Config config) {
    BodyKeyring ring;
    try {
      ring = of(config);
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException("invalid body encryption configuration: " + e.getMessage());
    }
    if (!ring.encrypts()) {
      throw new IllegalStateException(
          "no body encryption key: set " + KEYS + " (and " + KEY_ID + ") or " + LEGACY_KEY);
    }
    return ring.sealingKeyId();
  }

  /**
   * The configured ring; {@link #NONE} when no key is configured.
   *
   * @throws IllegalArgumentException when the configuration is invalid
   */
  public static BodyKeyring of(Config config) {
    return of(value(config, KEYS), value(config, KEY_ID), value(config, LEGACY_KEY));
  }

  /** The same from the three raw values (each may be absent or blank). */
  public static BodyKeyring of(
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
              if (ring.putIfAbsent(LEGACY_KEY_ID, value) != null) {
                throw new IllegalArgumentException(
                    LEGACY_KEY
                        + " is the key id "
                        + LEGACY_KEY_ID
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
      return NONE;
    }
    if (sealing.isEmpty() && ring.size() > 1) {
      throw new IllegalArgumentException(
          "the body keyring holds " + ring.keySet() + ": set " + KEY_ID + " to the sealing one");
    }
    return of(ring, sealing.orElse(ring.keySet().iterator().next()));
  }

  /**
   * A ring of the given keys.
   *
   * @param base64KeysById every key that may open a stored body, by id
   * @param sealingKeyId the id of the key that seals new bodies; one of the ring's
   * @throws IllegalArgumentException for an empty ring, an id that is not {@link #KEY_ID_FORMAT}, a
   *     key that is not Base64 of 32 bytes, or a sealing id outside the ring. The message never
   *     holds key material.
   */
  public static BodyKeyring of(Map<String, String> base64KeysById, String sealingKeyId) {
    if (base64KeysById.isEmpty()) {
      throw new IllegalArgumentException("the body keyring holds no key");
    }
    Map<String, SecretKey> keys = new LinkedHashMap<>();
    base64KeysById.forEach(
        (id, base64) -> {
          if (id == null || !KEY_ID_FORMAT.matcher(id).matches()) {
            throw new IllegalArgumentException(
                "a body key id must be 1 to 32 letters, digits, '.', '-' or '_'");
          }
          keys.put(id, new SecretKeySpec(decode(id, base64), "AES"));
        });
    if (sealingKeyId == null || !keys.containsKey(sealingKeyId)) {
      throw new IllegalArgumentException(
          "the sealing key id " + sealingKeyId + " is not one of the keyring's " + keys.keySet());
    }
    return new BodyKeyring(Collections.unmodifiableMap(keys), sealingKeyId);
  }

  private static byte[] decode(String id, String base64) {
    byte[] bytes;
    try {
      bytes = Base64.getDecoder().decode(base64 == null ? "" : base64.strip());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("the body key " + id + " is not Base64");
    }
    if (bytes.length != 32) {
      throw new IllegalArgumentException(
          "the body key " + id + " must be 32 bytes (Base64), not " + bytes.length);
    }
    return bytes;
  }

  /** True when bodies are sealed (and plaintext bodies refused). */
  public boolean encrypts() {
    return !keys.isEmpty();
  }

  /** The id of the key that seals new bodies, or null without encryption. */
  public String sealingKeyId() {
    return sealingKeyId;
  }

  /** The ids of every key that can open a body. */
  public Set<String> keyIds() {
    return keys.keySet();
  }

  /** The AES-256 key of {@code id}, if the ring holds it. */
  public Optional<SecretKey> key(String id) {
    return Optional.ofNullable(keys.get(id));
  }

  private static Optional<String> value(Config config, String name) {
    return config.getOptionalValue(name, String.class);
  }

  /** The ids only: key material never reaches a log. */
  @Override
  public String toString() {
    return keys.isEmpty()
        ? "BodyKeyring[none]"
        : "BodyKeyring[keys=" + keys.keySet() + ", sealing=" + sealingKeyId + "]";
  }
}
