package com.banhang.shop.client;

import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.ByteArrayInputStream;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * An RFC 9457 problem document, as the shop answers every error (docs/problems.md).
 *
 * <p>Match on {@link #slug()} (or {@link #type()}) and {@link #status()}; {@code title} and {@code
 * detail} are for people and may change.
 *
 * @param type the problem type URI; {@code about:blank} when the answer had none (RFC 9457, 3.1.1)
 * @param title a short summary, or null
 * @param status the HTTP status of the answer (the header line, which RFC 9457 makes authoritative
 *     over the document's own {@code status} member)
 * @param detail an explanation of this occurrence, or null
 * @param extensions every other member: {@code operation}, {@code idempotencyKeyExpiresAt}, {@code
 *     paymentId}, {@code orderId}, ... Strings as they are; numbers, booleans, arrays and objects
 *     as their JSON text
 */
public record Problem(
    String type, String title, int status, String detail, Map<String, String> extensions) {

  static final String UNTYPED = "about:blank";

  public Problem {
    Objects.requireNonNull(type, "type");
    // In the document's order, as a person reading the problem would expect them.
    extensions = Collections.unmodifiableMap(new LinkedHashMap<>(extensions));
  }

  /**
   * The part of {@link #type()} after {@code #}: the shop's type URIs all end with {@code #<slug>},
   * and the prefix before it is a setting of the shop, so the slug is what to compare. The whole
   * type when it has no {@code #}.
   */
  public String slug() {
    int hash = type.lastIndexOf('#');
    return hash < 0 ? type : type.substring(hash + 1);
  }

  /**
   * Reads an answer's body as a problem. A body that is not a JSON object (a proxy's HTML page, an
   * empty body) still gives a problem, of type {@code about:blank} with the answer's status, so
   * that every final answer can be reported the same way.
   */
  static Problem parse(int status, byte[] body) {
    JsonObject document;
    try (JsonReader reader = Json.createReader(new ByteArrayInputStream(body))) {
      JsonValue value = reader.readValue();
      if (value.getValueType() != JsonValue.ValueType.OBJECT) {
        return untyped(status);
      }
      document = value.asJsonObject();
    } catch (JsonException | IllegalStateException notJson) {
      return untyped(status);
    }
    Map<String, String> extensions = new LinkedHashMap<>();
    document.forEach(
        (name, value) -> {
          if (!name.equals("type")
              && !name.equals("title")
              && !name.equals("status")
              && !name.equals("detail")) {
            extensions.put(name, text(value));
          }
        });
    return new Problem(
        stringMember(document, "type", UNTYPED),
        stringMember(document, "title", null),
        status,
        stringMember(document, "detail", null),
        extensions);
  }

  private static Problem untyped(int status) {
    return new Problem(UNTYPED, null, status, null, Map.of());
  }

  /** A member that RFC 9457 defines as a string; one of another type is ignored, as it says. */
  private static String stringMember(JsonObject document, String name, String absent) {
    JsonValue value = document.get(name);
    return value instanceof JsonString string ? string.getString() : absent;
  }

  private static String text(JsonValue value) {
    if (value instanceof JsonString string) {
      return string.getString();
    }
    if (value instanceof JsonNumber number) {
      return number.toString();
    }
    return value.toString();
  }
}
