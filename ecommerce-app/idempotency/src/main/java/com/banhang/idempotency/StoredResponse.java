package com.banhang.idempotency;

import jakarta.json.JsonValue;
import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import java.util.logging.Logger;
import java.util.stream.Collectors;

/**
 * A response as stored for replay: status, the allowlisted headers and the exact body bytes. The
 * first answer to a key is sent from the same bytes that were stored ({@link #capture}, then {@link
 * #toResponse()}), so every replay is identical to it.
 *
 * <p>A response read from the store opens (decrypts) its body only when {@link #body()} is first
 * called, so that listings of rows (reconciliation, the console) never decrypt a body and one row
 * whose body cannot be opened never stops them; whoever returns the body meets the failure.
 */
public final class StoredResponse {

  /** Made on first use, so that the header checks need no JSON-B implementation. */
  private static final class Json {
    static final Jsonb JSONB = JsonbBuilder.create();
  }

  private static final Logger LOG = Logger.getLogger(StoredResponse.class.getName());

  /**
   * Headers never stored and never replayed, whatever {@code idempotency.stored-headers} says:
   * cookies and credentials belong to one exchange, not to every retry of an intent.
   */
  private static final Set<String> NEVER_STORED =
      Set.of(
          "set-cookie",
          "set-cookie2",
          "authorization",
          "proxy-authorization",
          "www-authenticate",
          "proxy-authenticate",
          "cookie");

  /**
   * True for a header of the fixed denylist: {@code Set-Cookie}, {@code Set-Cookie2}, {@code
   * Authorization}, {@code Proxy-Authorization}, {@code WWW-Authenticate}, {@code
   * Proxy-Authenticate}, {@code Cookie}, and any name containing "token" or "secret", in any case.
   */
  static boolean isNeverStored(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    return NEVER_STORED.contains(lower) || lower.contains("token") || lower.contains("secret");
  }

  /**
   * True when a header value may be stored and replayed: no CR, LF or other control character (HTAB
   * aside), which could split or forge headers on replay.
   */
  private static boolean isSafeValue(String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if ((c < 0x20 && c != '\t') || c == 0x7F) {
        return false;
      }
    }
    return true;
  }

  /** A header name may be stored and replayed: an RFC 9110 token, outside the denylist. */
  private static boolean isStorable(String name) {
    if (name.isEmpty() || isNeverStored(name)) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c <= 0x20 || c >= 0x7F || "\"(),/:;<=>?@[\\]{}".indexOf(c) >= 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * Serialises the entity once and keeps the allowlisted headers, never one of the denylist or one
   * whose value holds a control character.
   */
  public static StoredResponse capture(Response response, Collection<String> allowedHeaders) {
    Map<String, String> headers = new LinkedHashMap<>();
    for (String allowed : allowedHeaders) {
      if (!isStorable(allowed)) {
        continue;
      }
      response.getHeaders().entrySet().stream()
          .filter(h -> h.getKey().equalsIgnoreCase(allowed) && !h.getValue().isEmpty())
          .findFirst()
          .map(h -> String.valueOf(h.getValue().get(0)))
          .ifPresent(
              value -> {
                if (isSafeValue(value)) {
                  headers.put(allowed, value);
                } else {
                  LOG.warning(
                      () ->
                          "not storing header "
                              + allowed
                              + ": its value holds a control character");
                }
              });
    }
    Object entity = response.getEntity();
    if (entity != null && !headers.containsKey(HttpHeaders.CONTENT_TYPE)) {
      MediaType type = response.getMediaType();
      headers.put(
          HttpHeaders.CONTENT_TYPE, type == null ? MediaType.APPLICATION_JSON : type.toString());
    }
    return new StoredResponse(response.getStatus(), headers, serialise(entity));
  }

  private static byte[] serialise(Object entity) {
    if (entity == null) {
      return new byte[0];
    }
    if (entity instanceof byte[] bytes) {
      return bytes;
    }
    if (entity instanceof String text) {
      return text.getBytes(StandardCharsets.UTF_8);
    }
    if (entity instanceof JsonValue json) {
      return json.toString().getBytes(StandardCharsets.UTF_8);
    }
    return Json.JSONB.toJson(entity).getBytes(StandardCharsets.UTF_8);
  }

  /**
   * The response to send for stored bytes; the body is the stored array itself. Stored headers of
   * the denylist, or with a control character in their value (a row written by an older version or
   * by hand), are not replayed.
   */
  public Response toResponse() {
    Response.ResponseBuilder builder = Response.status(status);
    headers.forEach(
        (name, value) -> {
          if (isStorable(name) && isSafeValue(value)) {
            builder.header(name, value);
          } else {
            LOG.warning(() -> "not replaying stored header " + name);
          }
        });
    byte[] bytes = body();
    if (bytes.length > 0) {
      builder.entity(bytes);
    }
    return builder.build();
  }

  private final int status;
  private final Map<String, String> headers;
  private final Supplier<byte[]> opener;
  private volatile byte[] body;

  /**
   * @param headers header name to value, in the order they were captured; never cookies or
   *     credentials
   */
  public StoredResponse(int status, Map<String, String> headers, byte[] body) {
    this.status = status;
    this.headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
    this.body = body == null ? new byte[0] : body.clone();
    this.opener = null;
  }

  private StoredResponse(int status, Map<String, String> headers, Supplier<byte[]> opener) {
    this.status = status;
    this.headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
    this.opener = Objects.requireNonNull(opener);
  }

  /**
   * A stored response whose body {@code opener} yields on first use (and may fail to): for stores
   * that decrypt bodies lazily, so that a replay that cannot be opened fails where it is answered.
   */
  public static StoredResponse opening(
      int status, Map<String, String> headers, Supplier<byte[]> opener) {
    return new StoredResponse(status, headers, opener);
  }

  public int status() {
    return status;
  }

  public Map<String, String> headers() {
    return headers;
  }

  /**
   * The exact body bytes (a copy).
   *
   * @throws com.banhang.idempotency.IdempotencyStoreUnavailableException when the stored body
   *     cannot be opened (sealed under a key no longer configured, altered, or plaintext while
   *     encryption is configured)
   */
  public byte[] body() {
    byte[] current = body;
    if (current == null) {
      byte[] opened = opener.get();
      current = opened == null ? new byte[0] : opened;
      body = current;
    }
    return current.clone();
  }

  /** Where the response points to, if anywhere: the resource reference of the record. */
  public String location() {
    return headers.get("Location");
  }

  /** Headers as stored in one text column: one {@code Name: value} line each. */
  public String headersAsText() {
    return headers.entrySet().stream()
        .map(e -> e.getKey() + ": " + e.getValue())
        .collect(Collectors.joining("\n"));
  }

  public static Map<String, String> headersFromText(String text) {
    Map<String, String> headers = new LinkedHashMap<>();
    if (text == null || text.isEmpty()) {
      return headers;
    }
    for (String line : text.split("\n")) {
      int colon = line.indexOf(':');
      if (colon > 0) {
        headers.put(line.substring(0, colon), line.substring(colon + 1).strip());
      }
    }
    return headers;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof StoredResponse other
        && status == other.status
        && headers.equals(other.headers)
        && Arrays.equals(body(), other.body());
  }

  @Override
  public int hashCode() {
    return 31 * (31 * status + headers.hashCode()) + Arrays.hashCode(body());
  }

  @Override
  public String toString() {
    return "StoredResponse[status="
        + status
        + ", headers="
        + headers
        + ", "
        + (body == null ? "unopened body" : body.length + " bytes")
        + "]";
  }
}
