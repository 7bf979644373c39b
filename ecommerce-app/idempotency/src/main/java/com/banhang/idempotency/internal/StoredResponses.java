package com.banhang.idempotency.internal;

import com.banhang.idempotency.StoredResponse;
import jakarta.json.JsonValue;
import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.logging.Logger;

/**
 * Turns a response into the bytes that are stored, and stored bytes back into a response. The first
 * answer to a key is sent from the same bytes that were stored, so every replay is identical to it.
 */
public final class StoredResponses {

  /** Made on first use, so that the header checks need no JSON-B implementation. */
  private static final class Json {
    static final Jsonb JSONB = JsonbBuilder.create();
  }

  private static final Logger LOG = Logger.getLogger(StoredResponses.class.getName());

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

  private StoredResponses() {}

  /**
   * True for a header of the fixed denylist: {@code Set-Cookie}, {@code Set-Cookie2}, {@code
   * Authorization}, {@code Proxy-Authorization}, {@code WWW-Authenticate}, {@code
   * Proxy-Authenticate}, {@code Cookie}, and any name containing "token" or "secret", in any case.
   */
  public static boolean isNeverStored(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    return NEVER_STORED.contains(lower) || lower.contains("token") || lower.contains("secret");
  }

  /**
   * True when a header value may be stored and replayed: no CR, LF or other control character (HTAB
   * aside), which could split or forge headers on replay.
   */
  public static boolean isSafeValue(String value) {
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

  static byte[] serialise(Object entity) {
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
  public static Response toResponse(StoredResponse stored) {
    Response.ResponseBuilder builder = Response.status(stored.status());
    stored
        .headers()
        .forEach(
            (name, value) -> {
              if (isStorable(name) && isSafeValue(value)) {
                builder.header(name, value);
              } else {
                LOG.warning(() -> "not replaying stored header " + name);
              }
            });
    byte[] body = stored.body();
    if (body.length > 0) {
      builder.entity(body);
    }
    return builder.build();
  }
}
