package com.banhang.shop.client;

import java.util.UUID;

/**
 * The key of an intent, one per intent: made here (or checked, when the caller brings its own)
 * before the intent is stored, then written the same way into the {@code Idempotency-Key} header of
 * every try (docs/contract.md, section 3).
 */
final class IntentKeys {

  static final String HEADER = "Idempotency-Key";

  private static final int MAX_LENGTH = 255;

  private IntentKeys() {}

  /** A key for a new intent: a random UUID v4, the form docs/contract.md recommends. */
  static String newKey() {
    return UUID.randomUUID().toString();
  }

  /**
   * Refuses a caller's key that the shop would answer 400 {@code idempotency-key-invalid}: better
   * to fail here, before the intent is stored, than to keep an intent no retry can ever complete.
   */
  static String requireValid(String key) {
    if (key == null || key.isEmpty() || key.length() > MAX_LENGTH) {
      throw new IllegalArgumentException("an Idempotency-Key has 1 to 255 characters");
    }
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      if (c < 0x21 || c > 0x7E) {
        throw new IllegalArgumentException(
            "an Idempotency-Key is printable ASCII without spaces (0x21 to 0x7E), found 0x"
                + Integer.toHexString(c)
                + " at index "
                + i);
      }
    }
    return key;
  }

  /**
   * The header value: an RFC 9651 sf-string, as draft-ietf-httpapi-idempotency-key-header shows it.
   * Quoting (with {@code \"} and {@code \\} escaped, the only escapes the shop accepts) keeps every
   * valid key intact, even one that starts with a quote, which a bare token would not.
   */
  static String headerValue(String key) {
    return '"' + key.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
  }
}
