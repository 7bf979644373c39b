package com.banhang.shop.web.json;

import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;
import jakarta.json.bind.JsonbConfig;
import jakarta.json.bind.JsonbException;
import jakarta.json.bind.serializer.DeserializationContext;
import jakarta.json.bind.serializer.JsonbDeserializer;
import jakarta.json.stream.JsonParser;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.ext.ContextResolver;
import jakarta.ws.rs.ext.Provider;
import jakarta.ws.rs.ext.ReaderInterceptor;
import jakarta.ws.rs.ext.ReaderInterceptorContext;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Type;
import java.math.BigDecimal;

/**
 * JSON-B as the shop's request bodies need it (docs/problems.md): the default mapping silently
 * turns {@code 1.5} into the integer 1, {@code 10.01} into a price of 10, the number {@code 12}
 * into the text "12", and fails with a 500 on a number of thousands of digits. Here an integer
 * member takes only a JSON number with an integral value inside its type ({@code 1.0} is 1, as in
 * the fingerprint's canonical form), and a text member only a JSON string; anything else is a
 * {@link JsonbException}, which the shop answers as a 400 {@code malformed-request-body} before the
 * operation runs.
 */
@Provider
public class StrictJsonBodies implements ContextResolver<Jsonb> {

  /** Longer than any long or int can be spelled: refused before it is parsed at all. */
  private static final int MAX_NUMBER_CHARS = 40;

  private static final Jsonb JSONB =
      JsonbBuilder.create(
          new JsonbConfig().withDeserializers(new Longs(), new Integers(), new Strings()));

  @Override
  public Jsonb getContext(Class<?> type) {
    return JSONB;
  }

  /**
   * The value at the parser. Yasson hands a deserializer a parser whose currentEvent() is
   * unsupported; getValue() works. JSON-P refuses a number of more than 1,100 characters with an
   * UnsupportedOperationException, which would otherwise be a 500.
   */
  static JsonValue value(JsonParser parser) {
    try {
      return parser.getValue();
    } catch (UnsupportedOperationException e) {
      throw new JsonbException("a value too long to read", e);
    }
  }

  /** An integral value in [min, max], or null for JSON null (left to the bean's constraints). */
  static Long integral(JsonParser parser, long min, long max) {
    JsonValue json = value(parser);
    if (json.getValueType() == JsonValue.ValueType.NULL) {
      return null;
    }
    if (json.getValueType() != JsonValue.ValueType.NUMBER) {
      throw new JsonbException("expected an integer, found " + json.getValueType());
    }
    String text = json.toString();
    if (text.length() > MAX_NUMBER_CHARS) {
      throw new JsonbException("integer out of range");
    }
    long value;
    try {
      value = new BigDecimal(text).stripTrailingZeros().longValueExact();
    } catch (ArithmeticException | NumberFormatException e) {
      throw new JsonbException("expected an integer in range, found " + text);
    }
    if (value < min || value > max) {
      throw new JsonbException("integer out of range: " + text);
    }
    return value;
  }

  /** Long members. */
  public static final class Longs implements JsonbDeserializer<Long> {
    @Override
    public Long deserialize(JsonParser parser, DeserializationContext context, Type type) {
      return integral(parser, Long.MIN_VALUE, Long.MAX_VALUE);
    }
  }

  /** Integer members. */
  public static final class Integers implements JsonbDeserializer<Integer> {
    @Override
    public Integer deserialize(JsonParser parser, DeserializationContext context, Type type) {
      Long value = integral(parser, Integer.MIN_VALUE, Integer.MAX_VALUE);
      return value == null ? null : value.intValue();
    }
  }

  /** String members: a JSON string, not a number or a boolean spelled as one. */
  public static final class Strings implements JsonbDeserializer<String> {
    @Override
    public String deserialize(JsonParser parser, DeserializationContext context, Type type) {
      JsonValue json = value(parser);
      if (json.getValueType() == JsonValue.ValueType.NULL) {
        return null;
      }
      if (!(json instanceof JsonString text)) {
        throw new JsonbException("expected a string, found " + json.getValueType());
      }
      return text.getString();
    }
  }

  /**
   * A JSON request body read into a record (every request type of the shop's API) must be a JSON
   * object. Without this, JSON-B reads {@code [{...}]} as the object inside it, so a body the
   * fingerprint sees as an array would create an order (docs/problems.md).
   */
  @Provider
  public static class ObjectsOnly implements ReaderInterceptor {

    @Override
    public Object aroundReadFrom(ReaderInterceptorContext context) throws IOException {
      MediaType type = context.getMediaType();
      if (type != null
          && type.isCompatible(MediaType.APPLICATION_JSON_TYPE)
          && context.getType().isRecord()) {
        InputStream in = new BufferedInputStream(context.getInputStream());
        in.mark(1 << 16);
        int b;
        do {
          b = in.read();
        } while (b == ' ' || b == '\t' || b == '\r' || b == '\n');
        in.reset();
        if (b != -1 && b != '{') {
          throw new JsonbException("the body must be a JSON object");
        }
        context.setInputStream(in);
      }
      return context.proceed();
    }
  }
}
