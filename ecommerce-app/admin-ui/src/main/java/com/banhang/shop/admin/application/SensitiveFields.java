package com.banhang.shop.admin.application;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import jakarta.json.JsonWriter;
import jakarta.json.stream.JsonGenerator;
import java.io.ByteArrayInputStream;
import java.io.StringWriter;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Masks money and card fields of a stored response body before an operator sees it: the console
 * needs the shape of an answer, not a customer's amounts or card tokens. A body that is not JSON is
 * not shown at all, only its size.
 */
public final class SensitiveFields {

  /** Shown instead of a masked value. */
  public static final String MASK = "***";

  /** Member names (lower case, without separators) whose values are masked, at any depth. */
  private static final Set<String> MASKED =
      Set.of(
          "amount",
          "total",
          "unitprice",
          "price",
          "paymentmethod",
          "card",
          "cardnumber",
          "pan",
          "cvc",
          "cvv",
          "expmonth",
          "expyear",
          "iban",
          "accountnumber");

  private SensitiveFields() {}

  /** The body as indented JSON with sensitive members masked; a note for anything else. */
  public static String mask(byte[] body) {
    if (body == null || body.length == 0) {
      return "";
    }
    JsonValue value;
    try (JsonReader reader = Json.createReader(new ByteArrayInputStream(body))) {
      value = reader.readValue();
    } catch (JsonException | IllegalStateException e) {
      return "(" + body.length + " bytes, not JSON: not shown)";
    }
    StringWriter text = new StringWriter();
    try (JsonWriter writer =
        Json.createWriterFactory(Map.of(JsonGenerator.PRETTY_PRINTING, true)).createWriter(text)) {
      writer.write(masked(value));
    }
    return text.toString().trim();
  }

  static boolean isSensitive(String member) {
    String normalized = member.toLowerCase(Locale.ROOT).replace("_", "").replace("-", "");
    return MASKED.contains(normalized);
  }

  private static JsonValue masked(JsonValue value) {
    if (value instanceof JsonObject object) {
      JsonObjectBuilder builder = Json.createObjectBuilder();
      object.forEach(
          (name, member) ->
              builder.add(name, isSensitive(name) ? Json.createValue(MASK) : masked(member)));
      return builder.build();
    }
    if (value instanceof JsonArray array) {
      JsonArrayBuilder builder = Json.createArrayBuilder();
      array.forEach(element -> builder.add(masked(element)));
      return builder.build();
    }
    return value;
  }
}
