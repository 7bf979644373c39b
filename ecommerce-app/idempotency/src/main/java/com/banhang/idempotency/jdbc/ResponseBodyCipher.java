package com.banhang.idempotency.jdbc;

import com.banhang.idempotency.BodyKeyring;
import com.banhang.idempotency.IdempotencyStoreUnavailableException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;

/**
 * Encrypts stored response bodies at rest (docs/idempotency.md, "Stored bodies encrypted at rest")
 * with AES-256-GCM under a keyring ({@link BodyKeyring}, which reads and checks the configuration):
 * every key has an id, one of them seals new bodies, and each sealed body names the id of its key
 * in its header, so that bodies sealed under an older key stay readable after a rotation for as
 * long as that key stays in the ring.
 *
 * <p>Formats of a stored body (the first byte of a sealed body is NUL, which no JSON or text body
 * starts with):
 *
 * <ul>
 *   <li>{@code 00 'E' 'N' '2'}, one byte n (1 to 32), n bytes of the key id (ASCII), a 12-byte
 *       nonce, the ciphertext with its 16-byte tag. Associated data: the header (the 5 + n bytes
 *       before the nonce), then tenant, operation and key joined by LF.
 *   <li>{@code 00 'E' 'N' '1'}, a 12-byte nonce, ciphertext and tag: written before key ids
 *       existed, by the single {@code idempotency.body-encryption-key}; opened with the key whose
 *       id is {@value #LEGACY_KEY_ID}. Associated data: tenant, operation and key joined by LF.
 *   <li>anything else: a plaintext body. Read as it is only while no key is configured; once one
 *       is, a plaintext body is refused like a body that does not decrypt.
 * </ul>
 */
public final class ResponseBodyCipher {

  /** No encryption: bodies are stored as they are. */
  public static final ResponseBodyCipher NONE = new ResponseBodyCipher(BodyKeyring.NONE);

  /** The id of the single key of {@code idempotency.body-encryption-key}, and of bodies in v1. */
  public static final String LEGACY_KEY_ID = BodyKeyring.LEGACY_KEY_ID;

  /** What a key id may be: 1 to 32 letters, digits, dots, dashes or underscores. */
  public static final Pattern KEY_ID = BodyKeyring.KEY_ID_FORMAT;

  private static final byte[] MAGIC_V1 = {0, 'E', 'N', '1'};
  private static final byte[] MAGIC_V2 = {0, 'E', 'N', '2'};
  private static final int NONCE_BYTES = 12;
  private static final int TAG_BITS = 128;
  private static final SecureRandom RANDOM = new SecureRandom();

  private final BodyKeyring ring;

  /**
   * The sealing key and its header, taken from the ring once: sealing is on every keyed request's
   * path, and neither changes for the life of a cipher. Null without encryption.
   */
  private final SecretKey sealingKey;

  private final byte[] sealingHeader;

  private ResponseBodyCipher(BodyKeyring ring) {
    this.ring = ring;
    this.sealingKey = ring.encrypts() ? ring.key(ring.sealingKeyId()).orElseThrow() : null;
    this.sealingHeader = ring.encrypts() ? headerV2(ring.sealingKeyId()) : null;
  }

  /**
   * The cipher of a keyring the public API read and checked ({@link BodyKeyring#of}); {@link #NONE}
   * for a ring without keys.
   */
  public static ResponseBodyCipher of(BodyKeyring ring) {
    return ring.encrypts() ? new ResponseBodyCipher(ring) : NONE;
  }

  /**
   * A ring of the single legacy key, id {@value #LEGACY_KEY_ID}.
   *
   * @param base64Key 32 bytes, Base64-encoded (e.g. {@code openssl rand -base64 32})
   * @throws IllegalArgumentException if it is not a 256-bit key
   */
  public static ResponseBodyCipher aesGcm(String base64Key) {
    return keyring(Map.of(LEGACY_KEY_ID, base64Key), LEGACY_KEY_ID);
  }

  /**
   * {@link BodyKeyring#of(Map, String)}'s ring as a cipher.
   *
   * @throws IllegalArgumentException as {@link BodyKeyring#of(Map, String)} does; the message never
   *     holds key material
   */
  public static ResponseBodyCipher keyring(
      Map<String, String> base64KeysById, String sealingKeyId) {
    return of(BodyKeyring.of(base64KeysById, sealingKeyId));
  }

  /** True when bodies are sealed (and plaintext bodies refused). */
  public boolean encrypts() {
    return ring.encrypts();
  }

  /** The id of the key that seals new bodies, or null without encryption. */
  public String sealingKeyId() {
    return ring.sealingKeyId();
  }

  /** The ids of every key that can open a body. */
  public Set<String> keyIds() {
    return ring.keyIds();
  }

  byte[] seal(byte[] body, String tenant, String operation, String idempotencyKey) {
    if (sealingKey == null || body.length == 0) {
      return body;
    }
    try {
      byte[] header = sealingHeader;
      byte[] nonce = new byte[NONCE_BYTES];
      RANDOM.nextBytes(nonce);
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(Cipher.ENCRYPT_MODE, sealingKey, new GCMParameterSpec(TAG_BITS, nonce));
      cipher.updateAAD(header);
      cipher.updateAAD(scope(tenant, operation, idempotencyKey));
      byte[] sealed = cipher.doFinal(body);
      return ByteBuffer.allocate(header.length + NONCE_BYTES + sealed.length)
          .put(header)
          .put(nonce)
          .put(sealed)
          .array();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot encrypt a stored response", e);
    }
  }

  /**
   * The plaintext of a stored body.
   *
   * @throws IdempotencyStoreUnavailableException when the body cannot be trusted: sealed under a
   *     key id outside the ring, altered or moved to another row, or plaintext while a key is
   *     configured
   */
  byte[] open(byte[] stored, String tenant, String operation, String idempotencyKey) {
    if (stored == null || stored.length == 0) {
      return stored;
    }
    if (startsWith(stored, MAGIC_V2)) {
      int idLength = stored.length > MAGIC_V2.length ? stored[MAGIC_V2.length] & 0xFF : 0;
      int headerLength = MAGIC_V2.length + 1 + idLength;
      if (idLength == 0 || stored.length < headerLength + NONCE_BYTES + TAG_BITS / 8) {
        throw unreadable("a stored response has a damaged encryption header", null);
      }
      String id = new String(stored, MAGIC_V2.length + 1, idLength, StandardCharsets.US_ASCII);
      SecretKey key = ring.key(id).orElse(null);
      if (key == null) {
        throw unreadable(
            "a stored response is sealed under body key id '"
                + printable(id)
                + "', which is not in the configured keyring "
                + ring.keyIds(),
            null);
      }
      return decrypt(
          key,
          stored,
          headerLength,
          Arrays.copyOf(stored, headerLength),
          scope(tenant, operation, idempotencyKey));
    }
    if (startsWith(stored, MAGIC_V1)) {
      SecretKey key = ring.key(LEGACY_KEY_ID).orElse(null);
      if (key == null) {
        throw unreadable(
            "a stored response was sealed under the key of idempotency.body-encryption-key (id '"
                + LEGACY_KEY_ID
                + "'), which is not in the configured keyring",
            null);
      }
      if (stored.length < MAGIC_V1.length + NONCE_BYTES + TAG_BITS / 8) {
        throw unreadable("a stored response has a damaged encryption header", null);
      }
      return decrypt(
          key, stored, MAGIC_V1.length, new byte[0], scope(tenant, operation, idempotencyKey));
    }
    if (ring.encrypts()) {
      throw unreadable(
          "a stored response is not encrypted although body encryption is configured; it is not"
              + " replayed",
          null);
    }
    return stored;
  }

  private static byte[] decrypt(
      SecretKey key, byte[] stored, int nonceOffset, byte[] header, byte[] scope) {
    try {
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(
          Cipher.DECRYPT_MODE,
          key,
          new GCMParameterSpec(TAG_BITS, stored, nonceOffset, NONCE_BYTES));
      cipher.updateAAD(header);
      cipher.updateAAD(scope);
      int offset = nonceOffset + NONCE_BYTES;
      return cipher.doFinal(stored, offset, stored.length - offset);
    } catch (GeneralSecurityException e) {
      throw unreadable("a stored response cannot be decrypted with the configured key", e);
    }
  }

  /**
   * The first bytes that mark a body sealed with a key of the ring other than the sealing one: the
   * header of each such key id, and the header of bodies sealed before key ids existed when the
   * ring holds the {@value #LEGACY_KEY_ID} key that opens them. Empty without encryption, or when
   * the sealing key is the ring's only key. Bodies under an id outside the ring are not among them:
   * no key of the ring opens those, so no re-seal can move them.
   */
  List<byte[]> oldKeyPrefixes() {
    List<byte[]> prefixes = new ArrayList<>();
    for (String id : ring.keyIds()) {
      if (id.equals(ring.sealingKeyId())) {
        continue;
      }
      prefixes.add(headerV2(id));
      if (id.equals(LEGACY_KEY_ID)) {
        prefixes.add(MAGIC_V1.clone());
      }
    }
    return prefixes;
  }

  /**
   * {@code stored} opened with whichever key of the ring sealed it, and sealed again with the
   * sealing key, for the same row (the same associated data).
   *
   * @throws IdempotencyStoreUnavailableException when it does not open, as {@link #open} says
   */
  byte[] reseal(byte[] stored, String tenant, String operation, String idempotencyKey) {
    return seal(open(stored, tenant, operation, idempotencyKey), tenant, operation, idempotencyKey);
  }

  /** True when {@code stored} is a sealed body (of either format). */
  static boolean isSealed(byte[] stored) {
    return stored != null && (startsWith(stored, MAGIC_V1) || startsWith(stored, MAGIC_V2));
  }

  /** The key id a stored body names, {@value #LEGACY_KEY_ID} for v1, null for plaintext. */
  static String keyIdOf(byte[] stored) {
    if (stored != null && startsWith(stored, MAGIC_V2) && stored.length > MAGIC_V2.length) {
      int idLength = stored[MAGIC_V2.length] & 0xFF;
      if (stored.length >= MAGIC_V2.length + 1 + idLength) {
        return new String(stored, MAGIC_V2.length + 1, idLength, StandardCharsets.US_ASCII);
      }
    }
    return stored != null && startsWith(stored, MAGIC_V1) ? LEGACY_KEY_ID : null;
  }

  private static byte[] headerV2(String keyId) {
    byte[] id = keyId.getBytes(StandardCharsets.US_ASCII);
    return ByteBuffer.allocate(MAGIC_V2.length + 1 + id.length)
        .put(MAGIC_V2)
        .put((byte) id.length)
        .put(id)
        .array();
  }

  private static boolean startsWith(byte[] stored, byte[] magic) {
    return stored.length >= magic.length
        && Arrays.equals(stored, 0, magic.length, magic, 0, magic.length);
  }

  private static String printable(String id) {
    return KEY_ID.matcher(id).matches() ? id : "(not a valid id)";
  }

  private static IdempotencyStoreUnavailableException unreadable(String what, Exception cause) {
    return new IdempotencyStoreUnavailableException(what, cause);
  }

  private static byte[] scope(String tenant, String operation, String idempotencyKey) {
    return String.join("\n", tenant, operation, idempotencyKey).getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public String toString() {
    return ring.encrypts()
        ? "ResponseBodyCipher[keys=" + ring.keyIds() + ", sealing=" + ring.sealingKeyId() + "]"
        : "ResponseBodyCipher[none]";
  }
}
