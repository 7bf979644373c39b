package com.banhang.idempotency.persistence;

import com.banhang.idempotency.IdempotencyStoreUnavailableException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Encrypts stored response bodies at rest (docs/idempotency.md) with AES-256-GCM when a key is
 * configured. The key's scope (tenant, operation, key) is the associated data, so a body moved to
 * another row does not decrypt. Bodies stored before encryption was turned on stay readable: an
 * encrypted body starts with a NUL byte, which no JSON or text body does.
 */
public final class ResponseBodyCipher {

  /** No encryption: bodies are stored as they are. */
  public static final ResponseBodyCipher NONE = new ResponseBodyCipher(null);

  private static final byte[] MAGIC = {0, 'E', 'N', '1'};
  private static final int NONCE_BYTES = 12;
  private static final int TAG_BITS = 128;
  private static final SecureRandom RANDOM = new SecureRandom();

  private final SecretKey key;

  private ResponseBodyCipher(SecretKey key) {
    this.key = key;
  }

  /**
   * @param base64Key 32 bytes, Base64-encoded (e.g. {@code openssl rand -base64 32})
   * @throws IllegalArgumentException if it is not a 256-bit key
   */
  public static ResponseBodyCipher aesGcm(String base64Key) {
    byte[] bytes = Base64.getDecoder().decode(base64Key.strip());
    if (bytes.length != 32) {
      throw new IllegalArgumentException("the body encryption key must be 32 bytes (Base64)");
    }
    return new ResponseBodyCipher(new SecretKeySpec(bytes, "AES"));
  }

  byte[] seal(byte[] body, String tenant, String operation, String idempotencyKey) {
    if (key == null || body.length == 0) {
      return body;
    }
    try {
      byte[] nonce = new byte[NONCE_BYTES];
      RANDOM.nextBytes(nonce);
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
      cipher.updateAAD(scope(tenant, operation, idempotencyKey));
      byte[] sealed = cipher.doFinal(body);
      return ByteBuffer.allocate(MAGIC.length + NONCE_BYTES + sealed.length)
          .put(MAGIC)
          .put(nonce)
          .put(sealed)
          .array();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot encrypt a stored response", e);
    }
  }

  byte[] open(byte[] stored, String tenant, String operation, String idempotencyKey) {
    if (stored == null || !isSealed(stored)) {
      return stored;
    }
    if (key == null) {
      throw new IdempotencyStoreUnavailableException(
          "a stored response is encrypted but no idempotency.body-encryption-key is set", null);
    }
    try {
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(
          Cipher.DECRYPT_MODE,
          key,
          new GCMParameterSpec(TAG_BITS, stored, MAGIC.length, NONCE_BYTES));
      cipher.updateAAD(scope(tenant, operation, idempotencyKey));
      int offset = MAGIC.length + NONCE_BYTES;
      return cipher.doFinal(stored, offset, stored.length - offset);
    } catch (GeneralSecurityException e) {
      throw new IdempotencyStoreUnavailableException(
          "a stored response cannot be decrypted with the configured key", e);
    }
  }

  static boolean isSealed(byte[] stored) {
    return stored.length > MAGIC.length + NONCE_BYTES
        && Arrays.equals(stored, 0, MAGIC.length, MAGIC, 0, MAGIC.length);
  }

  private static byte[] scope(String tenant, String operation, String idempotencyKey) {
    return String.join("\n", tenant, operation, idempotencyKey).getBytes(StandardCharsets.UTF_8);
  }
}
