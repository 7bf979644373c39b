package com.banhang.gateway.sandbox.charge;

/**
 * The processor's rule for the {@code Idempotency-Key} of a charge (the header of {@code POST} and
 * the query parameter of the lookup): 1 to 255 characters of printable ASCII without spaces (0x21
 * to 0x7E), compared case-sensitively, as the shop's own keys are.
 */
public final class ChargeKeys {

  public static final int MAX_LENGTH = 255;

  private ChargeKeys() {}

  /**
   * Returns the key if it follows the rule.
   *
   * @throws InvalidRequestException {@code idempotency_key_missing} or {@code
   *     idempotency_key_invalid}
   */
  public static String require(String key) {
    if (key == null || key.isEmpty()) {
      throw new InvalidRequestException(
          "idempotency_key_missing", "the Idempotency-Key header is required");
    }
    if (!isValid(key)) {
      throw new InvalidRequestException(
          "idempotency_key_invalid",
          "the Idempotency-Key must be 1 to "
              + MAX_LENGTH
              + " printable ASCII characters without spaces");
    }
    return key;
  }

  /** Whether the key has 1 to 255 characters, each in 0x21..0x7E. */
  public static boolean isValid(String key) {
    return key != null
        && !key.isEmpty()
        && key.length() <= MAX_LENGTH
        && key.chars().allMatch(c -> c >= 0x21 && c <= 0x7E);
  }
}
