package com.banhang.idempotency.internal;

import com.banhang.idempotency.persistence.StoredResponse;
import jakarta.json.JsonValue;
import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Turns a response into the bytes that are stored, and stored bytes back into a response. The first
 * answer to a key is sent from the same bytes that were stored, so every replay is identical to it.
 */
public final class StoredResponses {

  private static final Jsonb JSONB = JsonbBuilder.create();

  private StoredResponses() {}

  /** Serialises the entity once and keeps the allowlisted headers. */
  public static StoredResponse capture(Response response, Collection<String> allowedHeaders) {
    Map<String, String> headers = new LinkedHashMap<>();
    for (String allowed : allowedHeaders) {
      response.getHeaders().entrySet().stream()
          .filter(h -> h.getKey().equalsIgnoreCase(allowed) && !h.getValue().isEmpty())
          .findFirst()
          .ifPresent(h -> headers.put(allowed, String.valueOf(h.getValue().get(0))));
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
    return JSONB.toJson(entity).getBytes(StandardCharsets.UTF_8);
  }

  /** The response to send for stored bytes; the body is the stored array itself. */
  public static Response toResponse(StoredResponse stored) {
    Response.ResponseBuilder builder = Response.status(stored.status());
    stored.headers().forEach(builder::header);
    byte[] body = stored.body();
    if (body.length > 0) {
      builder.entity(body);
    }
    return builder.build();
  }
}
