package com.banhang.idempotency.internal;

import java.util.List;

/**
 * Reads the {@code Idempotency-Key} header in both forms clients send: a bare token (Stripe's
 * clients) and an RFC 8941/9651 sf-string (the IETF draft). The key is what remains once unquoted:
 * 1 to 255 characters of printable ASCII without spaces, case-sensitive.
 */
public final class IdempotencyKeyParser {

  public static final int MAX_LENGTH = 255;

  private IdempotencyKeyParser() {}

  /**
   * @param headerValues every value of the header in the request; more than one is ambiguous
   * @return the key
   * @throws InvalidIdempotencyKeyException with a reason fit for the client
   */
  public static String parse(List<String> headerValues) throws InvalidIdempotencyKeyException {
    if (headerValues.size() != 1) {
      throw new InvalidIdempotencyKeyException("send exactly one Idempotency-Key header");
    }
    return parse(headerValues.get(0));
  }

  public static String parse(String headerValue) throws InvalidIdempotencyKeyException {
    if (headerValue == null) {
      throw new InvalidIdempotencyKeyException("the Idempotency-Key header is empty");
    }
    // HTTP allows optional whitespace around a field value; it is not part of the key.
    String value = stripOws(headerValue);
    String key = value.startsWith("\"") ? unquote(value) : value;
    if (key.isEmpty()) {
      throw new InvalidIdempotencyKeyException("the Idempotency-Key header is empty");
    }
    if (key.length() > MAX_LENGTH) {
      throw new InvalidIdempotencyKeyException(
          "an Idempotency-Key has at most " + MAX_LENGTH + " characters");
    }
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      if (c < 0x21 || c > 0x7E) {
        throw new InvalidIdempotencyKeyException(
            "an Idempotency-Key is printable ASCII without spaces (character " + (i + 1) + ")");
      }
    }
    return key;
  }

  private static String stripOws(String value) {
    int start = 0;
    int end = value.length();
    while (start < end && isOws(value.charAt(start))) {
      start++;
    }
    while (end > start && isOws(value.charAt(end - 1))) {
      end--;
    }
    return value.substring(start, end);
  }

  private static boolean isOws(char c) {
    return c == ' ' || c == '\t';
  }

  /**
   * RFC 9651 s4.2.5: DQUOTE, then chars with only \" and \\ escapes, then DQUOTE, nothing after.
   */
  private static String unquote(String value) throws InvalidIdempotencyKeyException {
    StringBuilder key = new StringBuilder(value.length());
    for (int i = 1; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '\\') {
        if (i + 1 >= value.length()) {
          break;
        }
        char escaped = value.charAt(++i);
        if (escaped != '"' && escaped != '\\') {
          throw new InvalidIdempotencyKeyException(
              "a quoted Idempotency-Key may escape only \" and \\");
        }
        key.append(escaped);
      } else if (c == '"') {
        if (i != value.length() - 1) {
          throw new InvalidIdempotencyKeyException("nothing may follow a quoted Idempotency-Key");
        }
        return key.toString();
      } else {
        key.append(c);
      }
    }
    throw new InvalidIdempotencyKeyException("a quoted Idempotency-Key lacks its closing quote");
  }
}
