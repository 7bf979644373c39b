package com.banhang.idempotency;

import jakarta.json.Json;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import jakarta.ws.rs.core.Response;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * An RFC 9457 problem document: the body of every error the library answers, and of the ones an
 * application stores as the final result of a key (a declined card). Each kind has its own type
 * URI, {@code idempotency.problem-type-base} followed by its slug.
 *
 * @param extensions extra members, in order (field errors, the operation, the key's expiry)
 */
public record ProblemDetails(
    int status, String slug, String title, String detail, Map<String, JsonValue> extensions) {

  public static final String MEDIA_TYPE = "application/problem+json";

  /** The setting that prefixes every problem's type URI: the application's documentation. */
  public static final String TYPE_BASE = "idempotency.problem-type-base";

  public ProblemDetails {
    extensions = new LinkedHashMap<>(extensions);
  }

  public ProblemDetails(int status, String slug, String title, String detail) {
    this(status, slug, title, detail, Map.of());
  }

  /** A copy with one more extension member. */
  public ProblemDetails with(String name, JsonValue value) {
    Map<String, JsonValue> more = new LinkedHashMap<>(extensions);
    more.put(name, value);
    return new ProblemDetails(status, slug, title, detail, more);
  }

  public ProblemDetails with(String name, String value) {
    return with(name, Json.createValue(value));
  }

  /**
   * {@value #TYPE_BASE} followed by the slug. The base is the application's: the URI of its own
   * problem documentation; a deployment without it is refused. Outside a deployment (a unit test
   * without the setting) the type is the bare slug, a relative reference.
   */
  public String type() {
    return ConfigProvider.getConfig().getOptionalValue(TYPE_BASE, String.class).orElse("") + slug;
  }

  public byte[] toJson() {
    JsonObjectBuilder body =
        Json.createObjectBuilder()
            .add("type", type())
            .add("title", title)
            .add("status", status)
            .add("detail", detail);
    extensions.forEach(body::add);
    return body.build().toString().getBytes(StandardCharsets.UTF_8);
  }

  public Response toResponse() {
    return Response.status(status).type(MEDIA_TYPE).entity(toJson()).build();
  }
}
