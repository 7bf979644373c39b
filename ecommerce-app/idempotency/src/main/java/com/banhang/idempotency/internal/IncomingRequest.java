package com.banhang.idempotency.internal;

import jakarta.ws.rs.container.ContainerRequestContext;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.Principal;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.SortedMap;
import java.util.TreeMap;

/** What the gate reads from a JAX-RS request, and the one date format it writes back. */
final class IncomingRequest {

  /** IMF-fixdate (RFC 9110, section 5.6.7), the only date format an HTTP sender may produce. */
  private static final DateTimeFormatter HTTP_DATE =
      DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US);

  private IncomingRequest() {}

  /**
   * The body, at most {@code limit} bytes, put back on the request so that the method reads the
   * very bytes that were fingerprinted.
   */
  static byte[] body(ContainerRequestContext request, int limit) throws RejectedRequestException {
    if (request.getLength() > limit) {
      throw tooLarge(limit);
    }
    InputStream in = request.getEntityStream();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    try {
      int n;
      while ((n = in.read(buffer)) != -1) {
        out.write(buffer, 0, n);
        if (out.size() > limit) {
          throw tooLarge(limit);
        }
      }
    } catch (IOException e) {
      throw new RejectedRequestException(
          IdempotencyProblem.MALFORMED_BODY, "the body could not be read");
    }
    byte[] body = out.toByteArray();
    // The method reads the same bytes that were fingerprinted.
    request.setEntityStream(new ByteArrayInputStream(body));
    return body;
  }

  private static RejectedRequestException tooLarge(int limit) {
    return new RejectedRequestException(
        IdempotencyProblem.BODY_TOO_LARGE, "the body exceeds " + limit + " bytes");
  }

  static SortedMap<String, String> pathParameters(ContainerRequestContext request) {
    SortedMap<String, String> parameters = new TreeMap<>();
    request
        .getUriInfo()
        .getPathParameters()
        .forEach((name, values) -> parameters.put(name, String.join("/", values)));
    return parameters;
  }

  /**
   * The tenant is whoever authenticated, never something the client writes in the request; null
   * when nobody did (no principal, or one without a name).
   */
  static String tenant(ContainerRequestContext request) {
    Principal principal =
        request.getSecurityContext() == null
            ? null
            : request.getSecurityContext().getUserPrincipal();
    String name = principal == null ? null : principal.getName();
    return name == null || name.isBlank() ? null : name;
  }

  /** The longest tenant the stores keep (their tenant columns). */
  static final int MAX_TENANT_LENGTH = 100;

  /**
   * Whether {@code tenant} can scope keys on every database: no white space at either end (SQL
   * Server's {@code =} and its primary keys ignore trailing blanks, so "bob" and "bob " would be
   * one caller there and two elsewhere), no control character, and not longer than the tenant
   * columns.
   */
  static boolean usableTenant(String tenant) {
    return tenant.length() <= MAX_TENANT_LENGTH
        && tenant.strip().equals(tenant)
        && tenant.codePoints().noneMatch(Character::isISOControl);
  }

  /** {@code instant} as an IMF-fixdate, for a header. */
  static String httpDate(Instant instant) {
    return HTTP_DATE.format(instant.atOffset(ZoneOffset.UTC));
  }
}
