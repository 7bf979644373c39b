package com.banhang.shop.web.problems;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.core.Response;
import java.util.List;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * An RFC 9457 problem document. Each kind has its own type URI under the shop's documentation
 * (docs/problems.md), a title, the status and a detail; validation problems name their fields.
 */
public record Problem(int status, String slug, String title, String detail, List<FieldError> errors) {

  public static final String MEDIA_TYPE = "application/problem+json";

  /** A field that failed validation, by its path in the body, e.g. {@code items[0].quantity}. */
  public record FieldError(String field, String message) {}

  public Problem(int status, String slug, String title, String detail) {
    this(status, slug, title, detail, List.of());
  }

  public String json() {
    JsonObjectBuilder body =
        Json.createObjectBuilder()
            .add("type", typeBase() + slug)
            .add("title", title)
            .add("status", status)
            .add("detail", detail);
    if (!errors.isEmpty()) {
      JsonArrayBuilder list = Json.createArrayBuilder();
      errors.forEach(e -> list.add(Json.createObjectBuilder().add("field", e.field()).add("message", e.message())));
      body.add("errors", list);
    }
    return body.build().toString();
  }

  public Response response() {
    return Response.status(status).type(MEDIA_TYPE).entity(json()).build();
  }

  private static String typeBase() {
    return ConfigProvider.getConfig()
        .getOptionalValue("idempotency.problem-type-base", String.class)
        .orElse("about:blank#");
  }
}
