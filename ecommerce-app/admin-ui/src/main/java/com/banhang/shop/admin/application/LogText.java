package com.banhang.shop.admin.application;

/**
 * Makes text that came from a user (a reason, a key, a tenant, a user name, a charge id) safe to
 * put into one log line: line breaks and every other control character become {@code \n}, {@code
 * \r}, {@code \t} or a backslash, u and four hex digits, so a value can neither start a forged log
 * line nor hide what follows it with terminal escapes; a backslash is doubled so that an escape in
 * the log always means one of these. Long values are cut, saying so.
 */
public final class LogText {

  /** Characters of one value kept in a log line. */
  static final int MAX_LENGTH = 200;

  private LogText() {}

  /** The value as it may be logged; {@code null} for null. */
  public static String of(Object value) {
    if (value == null) {
      return "null";
    }
    String text = String.valueOf(value);
    StringBuilder safe = new StringBuilder(Math.min(text.length(), MAX_LENGTH) + 16);
    int kept = Math.min(text.length(), MAX_LENGTH);
    for (int i = 0; i < kept; i++) {
      char c = text.charAt(i);
      switch (c) {
        case '\n' -> safe.append("\\n");
        case '\r' -> safe.append("\\r");
        case '\t' -> safe.append("\\t");
        case '\\' -> safe.append("\\\\");
        default -> {
          if (Character.isISOControl(c)
              || c == '\u2028'
              || c == '\u2029'
              || c == '\u0085'
              || Character.getType(c) == Character.FORMAT) {
            safe.append(String.format("\\u%04x", (int) c));
          } else {
            safe.append(c);
          }
        }
      }
    }
    if (text.length() > kept) {
      safe.append("...(").append(text.length() - kept).append(" more characters)");
    }
    return safe.toString();
  }
}
