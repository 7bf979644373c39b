package com.banhang.conformance;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** A caller, by the HTTP Basic credentials it authenticates with (RFC 7617). */
public record Tenant(String user, String password) {

  /** {@code user:password}; the password may itself contain colons. */
  public static Tenant parse(String text) {
    int colon = text.indexOf(':');
    if (colon <= 0) {
      throw new IllegalArgumentException("a tenant is user:password, got: " + text);
    }
    return new Tenant(text.substring(0, colon), text.substring(colon + 1));
  }

  /** The value of the {@code Authorization} header. */
  public String authorization() {
    return "Basic "
        + Base64.getEncoder()
            .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public String toString() {
    // Never print the password in a report line.
    return user;
  }
}
