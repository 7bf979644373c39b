package com.banhang.shop.web.security;

import com.banhang.idempotency.ProblemDetails;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;

/** What the API's login throttle reads from a request and answers. */
public final class LoginRefusals {

  private static final String BASIC = "basic ";

  private LoginRefusals() {}

  /** The user name of an {@code Authorization: Basic} header, if it is one and well formed. */
  public static Optional<String> basicUserName(String authorization) {
    if (authorization == null
        || authorization.length() <= BASIC.length()
        || !authorization.regionMatches(true, 0, BASIC, 0, BASIC.length())) {
      return Optional.empty();
    }
    String decoded;
    try {
      decoded =
          new String(
              Base64.getDecoder().decode(authorization.substring(BASIC.length()).trim()),
              StandardCharsets.UTF_8);
    } catch (IllegalArgumentException notBase64) {
      return Optional.empty();
    }
    int colon = decoded.indexOf(':');
    return colon <= 0 ? Optional.empty() : Optional.of(decoded.substring(0, colon));
  }

  /** 429 {@code too-many-failed-logins} with {@code Retry-After}; never a Basic challenge. */
  public static void tooManyFailedLogins(HttpServletResponse response, Duration wait)
      throws IOException {
    response.setHeader("Retry-After", Long.toString(seconds(wait)));
    write(
        response,
        new ProblemDetails(
            429,
            "too-many-failed-logins",
            "Too many failed logins",
            "logins of this user or from this address are refused for a while after repeated"
                + " failures, the right password too; retry after the seconds in Retry-After"));
  }

  /** 403 {@code https-required}; never a Basic challenge. */
  public static void httpsRequired(HttpServletResponse response) throws IOException {
    write(
        response,
        new ProblemDetails(
            403,
            "https-required",
            "HTTPS required",
            "this server answers only over TLS; send the request to its https:// address"));
  }

  /** Whole seconds, rounded up, so that a client that waits that long finds a token back. */
  static long seconds(Duration wait) {
    long seconds = wait.toSeconds();
    return wait.equals(Duration.ofSeconds(seconds)) ? Math.max(1, seconds) : seconds + 1;
  }

  private static void write(HttpServletResponse response, ProblemDetails problem)
      throws IOException {
    // The container's challenge must not stay on a refusal: a client would send its password.
    response.setHeader("WWW-Authenticate", null);
    response.setStatus(problem.status());
    response.setContentType(ProblemDetails.MEDIA_TYPE);
    response.setCharacterEncoding("UTF-8");
    response.getOutputStream().write(problem.toJson());
  }
}
