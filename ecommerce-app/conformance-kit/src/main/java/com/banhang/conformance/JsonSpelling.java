package com.banhang.conformance;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.ByteArrayOutputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Other spellings of one JSON body: the same request written differently (for the fingerprint
 * rule), and broken or hostile variants of it (for the bad-input rules). Strings are always written
 * with the escaping of {@link Json#createValue(String)}, so their content never changes.
 */
public final class JsonSpelling {

  private JsonSpelling() {}

  /** The body parsed, or empty if it is not JSON. */
  public static Optional<JsonValue> parse(String body) {
    try (JsonReader reader = Json.createReader(new StringReader(body))) {
      return Optional.of(reader.readValue());
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  /**
   * The respellings of {@code body} that mean the same request under RFC 8785 canonicalisation
   * (docs/contract.md section 4), by what was changed; a respelling that would not change the bytes
   * (no object with two members, no integer) is left out.
   */
  public static Map<String, String> respellings(String body) {
    Map<String, String> variants = new LinkedHashMap<>();
    JsonValue value = parse(body).orElse(null);
    if (value == null) {
      return variants;
    }
    add(variants, body, "member order", write(value, Style.REVERSED));
    add(variants, body, "whitespace", write(value, Style.SPACED));
    add(variants, body, "1 written as 1.0", write(value, Style.INTEGERS_AS_DECIMALS));
    return variants;
  }

  private static void add(Map<String, String> variants, String body, String what, String text) {
    String compact = parse(body).map(v -> write(v, Style.COMPACT)).orElse(body);
    if (!text.equals(body) && !text.equals(compact)) {
      variants.put(what, text);
    }
  }

  /** {@code body} as a JSON object, if it is one (the bad-input variants need one). */
  public static Optional<JsonObject> object(String body) {
    return parse(body).filter(JsonObject.class::isInstance).map(JsonObject.class::cast);
  }

  /** The object with a member of another JSON type in place of each top-level member. */
  public static String wrongTypes(JsonObject object) {
    StringBuilder out = new StringBuilder("{");
    for (Map.Entry<String, JsonValue> member : object.entrySet()) {
      if (out.length() > 1) {
        out.append(',');
      }
      out.append(Json.createValue(member.getKey())).append(':');
      out.append(
          switch (member.getValue().getValueType()) {
            case STRING -> "12345";
            case NUMBER -> "\"not a number\"";
            case ARRAY -> "\"not an array\"";
            case OBJECT -> "[\"not an object\"]";
            case TRUE, FALSE -> "\"not a boolean\"";
            case NULL -> "{\"not\":\"null\"}";
          });
    }
    return out.append('}').toString();
  }

  /** The object with its first member written twice (RFC 7493 section 2.3 forbids it). */
  public static String duplicateFirstMember(JsonObject object) {
    Map.Entry<String, JsonValue> first = object.entrySet().iterator().next();
    String member = Json.createValue(first.getKey()) + ":" + write(first.getValue(), Style.COMPACT);
    return "{" + member + "," + write(object, Style.COMPACT).substring(1);
  }

  /**
   * The object with one more member first, whose value is {@code rawValue} as given: the bytes need
   * not be valid JSON, or valid UTF-8.
   */
  public static byte[] withLeadingMember(JsonObject object, String name, byte[] rawValue) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(("{" + Json.createValue(name) + ":").getBytes(StandardCharsets.UTF_8));
    out.writeBytes(rawValue);
    String rest = write(object, Style.COMPACT).substring(1);
    out.writeBytes(((rest.equals("}") ? "" : ",") + rest).getBytes(StandardCharsets.UTF_8));
    return out.toByteArray();
  }

  /** The object with one more member first, a JSON value. */
  public static String withLeadingMember(JsonObject object, String name, String jsonValue) {
    return new String(
        withLeadingMember(object, name, jsonValue.getBytes(StandardCharsets.UTF_8)),
        StandardCharsets.UTF_8);
  }

  /** How {@link #write} spells a value. */
  enum Style {
    COMPACT,
    /** Members of every object in reverse order. */
    REVERSED,
    /** Spaces and line breaks between every token. */
    SPACED,
    /** Every integer written with a fraction of zero: {@code 1} as {@code 1.0}. */
    INTEGERS_AS_DECIMALS
  }

  static String write(JsonValue value, Style style) {
    StringBuilder out = new StringBuilder();
    write(value, style, out);
    return out.toString();
  }

  private static void write(JsonValue value, Style style, StringBuilder out) {
    String gap = style == Style.SPACED ? " \n  " : "";
    switch (value.getValueType()) {
      case OBJECT -> {
        List<Map.Entry<String, JsonValue>> members =
            new ArrayList<>(((JsonObject) value).entrySet());
        if (style == Style.REVERSED) {
          java.util.Collections.reverse(members);
        }
        out.append('{').append(gap);
        for (int i = 0; i < members.size(); i++) {
          if (i > 0) {
            out.append(gap).append(',').append(gap);
          }
          out.append(Json.createValue(members.get(i).getKey())).append(gap).append(':').append(gap);
          write(members.get(i).getValue(), style, out);
        }
        out.append(gap).append('}');
      }
      case ARRAY -> {
        JsonArray array = (JsonArray) value;
        out.append('[').append(gap);
        for (int i = 0; i < array.size(); i++) {
          if (i > 0) {
            out.append(gap).append(',').append(gap);
          }
          write(array.get(i), style, out);
        }
        out.append(gap).append(']');
      }
      case NUMBER -> {
        JsonNumber number = (JsonNumber) value;
        if (style == Style.INTEGERS_AS_DECIMALS && number.isIntegral()) {
          out.append(number.bigIntegerValue()).append(".0");
        } else {
          out.append(number);
        }
      }
      case STRING -> out.append(Json.createValue(((JsonString) value).getString()));
      default -> out.append(value);
    }
  }
}
