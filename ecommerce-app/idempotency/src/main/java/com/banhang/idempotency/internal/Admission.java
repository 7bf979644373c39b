package com.banhang.idempotency.internal;

import com.banhang.idempotency.IdempotencyEvent;
import com.banhang.idempotency.IdempotencyEvent.Kind;
import com.banhang.idempotency.IdempotencyRecord;
import com.banhang.idempotency.IdempotencyStoreUnavailableException;
import com.banhang.idempotency.Idempotent;
import com.banhang.idempotency.SideEffects;
import com.banhang.idempotency.spi.IdempotencyStore;
import com.banhang.idempotency.spi.IdempotencyStore.ClaimRequest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.Principal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The first phase of {@link IdempotencyGate}: who calls, the key, and the fingerprint of the path
 * and body, or the refusal that ends the request before anything is written (401, 403, 400, 413,
 * 422 for a body that cannot be fingerprinted).
 */
@ApplicationScoped
public class Admission {

  /** The longest caller name the stores keep (their tenant columns). */
  static final int MAX_TENANT_LENGTH = 100;

  @Inject IdempotencySettings settings;
  @Inject IdempotencyStore store;
  @Inject IdempotencyProblems problems;
  @Inject RequestLifecycle lifecycle;
  @Inject Event<IdempotencyEvent> events;

  /**
   * The claim this request would make; null when it was refused here (no caller, a caller name that
   * cannot scope keys, no key or a bad one, a body that cannot be fingerprinted; the request is
   * then answered) or carries no key where one is optional.
   */
  ClaimRequest claimRequest(Idempotent policy, ContainerRequestContext request) {
    String operation = policy.operation();
    Duration ttl = settings.ttl(operation, policy.ttl());
    List<String> keyValues = request.getHeaders().get(IdempotencyGate.KEY_HEADER);
    boolean keyPresented = keyValues != null && !keyValues.isEmpty();
    String tenant = tenant(request);
    if (tenant == null) {
      tenant = settings.unauthenticatedTenant().orElse(null);
    }
    if (tenant == null && (keyPresented || policy.keyRequired())) {
      // Keys are scoped by who calls: without a caller there is no scope to keep them apart.
      return refuse(
          request,
          IdempotencyProblem.AUTHENTICATION_REQUIRED,
          "this operation needs an authenticated caller: its Idempotency-Key is kept per caller",
          operation,
          expiryOfAClaimMadeNow(ttl));
    }
    if (tenant != null && !usableTenant(tenant)) {
      return refuse(
          request,
          IdempotencyProblem.CALLER_NAME_UNUSABLE,
          "this caller's name cannot keep its Idempotency-Keys apart from other callers' (white"
              + " space at either end, a control character, or more than "
              + MAX_TENANT_LENGTH
              + " characters): an administrator must rename the account",
          operation,
          expiryOfAClaimMadeNow(ttl));
    }
    if (!keyPresented) {
      return policy.keyRequired()
          ? refuse(
              request,
              IdempotencyProblem.KEY_MISSING,
              "this operation needs an Idempotency-Key header; send a new UUID per intent",
              operation,
              expiryOfAClaimMadeNow(ttl))
          : null;
    }
    String key;
    try {
      key = parseKey(keyValues);
    } catch (InvalidIdempotencyKeyException e) {
      return refuse(
          request,
          IdempotencyProblem.KEY_INVALID,
          e.getMessage(),
          operation,
          expiryOfAClaimMadeNow(ttl));
    }
    String fingerprint;
    try {
      fingerprint =
          RequestFingerprint.of(
              operation,
              pathParameters(request),
              body(request, settings.maxBodyBytes()),
              settings.bodyLimits());
    } catch (RejectedRequestException e) {
      // The key was parsed, so the answer states its expiry.
      lifecycle.keyPresented(operation, expiryWithoutAClaim(tenant, operation, key, ttl));
      return refuse(
          request, e.problem(), e.getMessage(), operation, lifecycle.expiresAt(), tenant, key);
    }
    return new ClaimRequest(
        tenant,
        operation,
        key,
        fingerprint,
        settings.lease(),
        ttl,
        policy.sideEffects() == SideEffects.LOCAL);
  }

  /**
   * Refuses the request in the filter with {@code problem}, before its caller and key were read;
   * nothing is written.
   */
  private ClaimRequest refuse(
      ContainerRequestContext request,
      IdempotencyProblem problem,
      String detail,
      String operation,
      Instant expiresAt) {
    return refuse(request, problem, detail, operation, expiresAt, null, null);
  }

  /**
   * Refuses the request in the filter with {@code problem}; nothing is written. The event names the
   * key when it was read (a body refused after it), so the key's history shows the refusal.
   */
  private ClaimRequest refuse(
      ContainerRequestContext request,
      IdempotencyProblem problem,
      String detail,
      String operation,
      Instant expiresAt,
      String tenant,
      String key) {
    events.fire(new IdempotencyEvent(operation, Kind.REJECTED, null, tenant, key));
    request.abortWith(problems.response(problem, detail, operation, expiresAt));
    lifecycle.answered();
    return null;
  }

  // ---------------------------------------------------------------- The key's expiry on answers

  /**
   * The expiry a claim of this key made now would get (the claim itself takes the store's clock, so
   * this is approximate): what a response states for a key that no row binds.
   */
  static Instant expiryOfAClaimMadeNow(Duration ttl) {
    return Instant.now().plus(ttl);
  }

  /** The row's expiry while a row binds the key; a released tombstone binds nothing. */
  static Instant expiryOf(IdempotencyRecord existing, Duration ttl) {
    return existing == null || existing.status() == IdempotencyRecord.Status.RELEASED
        ? expiryOfAClaimMadeNow(ttl)
        : existing.expiresAt();
  }

  /**
   * For a request refused before its claim: the row's expiry if a row binds the key, else that of a
   * claim made now. A store that cannot be read does not change the refusal.
   */
  Instant expiryWithoutAClaim(String tenant, String operation, String key, Duration ttl) {
    try {
      return expiryOf(store.find(tenant, operation, key).orElse(null), ttl);
    } catch (IdempotencyStoreUnavailableException e) {
      return expiryOfAClaimMadeNow(ttl);
    }
  }

  // ---------------------------------------------------------------- What is read from the request

  /**
   * The caller is whoever authenticated, never something the client writes in the request; null
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

  static SortedMap<String, String> pathParameters(ContainerRequestContext request) {
    SortedMap<String, String> parameters = new TreeMap<>();
    request
        .getUriInfo()
        .getPathParameters()
        .forEach((name, values) -> parameters.put(name, String.join("/", values)));
    return parameters;
  }

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
    request.setEntityStream(new ByteArrayInputStream(body));
    return body;
  }

  private static RejectedRequestException tooLarge(int limit) {
    return new RejectedRequestException(
        IdempotencyProblem.BODY_TOO_LARGE, "the body exceeds " + limit + " bytes");
  }

  // ---------------------------------------------------------------- The key

  // The Idempotency-Key header in both forms clients send: a bare token (Stripe's clients) and an
  // RFC 8941/9651 sf-string (the IETF draft). The key is what remains once unquoted: 1 to 255
  // characters of printable ASCII without spaces, case-sensitive.

  static final int MAX_KEY_LENGTH = 255;

  /**
   * @param headerValues every value of the header in the request; more than one is ambiguous
   * @return the key
   * @throws InvalidIdempotencyKeyException with a reason fit for the client
   */
  static String parseKey(List<String> headerValues) throws InvalidIdempotencyKeyException {
    if (headerValues.size() != 1) {
      throw new InvalidIdempotencyKeyException("send exactly one Idempotency-Key header");
    }
    return parseKey(headerValues.get(0));
  }

  static String parseKey(String headerValue) throws InvalidIdempotencyKeyException {
    if (headerValue == null) {
      throw new InvalidIdempotencyKeyException("the Idempotency-Key header is empty");
    }
    // HTTP allows optional whitespace around a field value; it is not part of the key.
    String value = stripOws(headerValue);
    String key = value.startsWith("\"") ? unquote(value) : value;
    if (key.isEmpty()) {
      throw new InvalidIdempotencyKeyException("the Idempotency-Key header is empty");
    }
    if (key.length() > MAX_KEY_LENGTH) {
      throw new InvalidIdempotencyKeyException(
          "an Idempotency-Key has at most " + MAX_KEY_LENGTH + " characters");
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
