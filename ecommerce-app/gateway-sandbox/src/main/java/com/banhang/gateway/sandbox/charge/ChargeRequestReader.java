package com.banhang.gateway.sandbox.charge;

import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonStructure;
import jakarta.json.JsonValue;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validator;
import java.io.StringReader;
import java.util.Comparator;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Turns the body of {@code POST /v1/charges} into a valid {@link ChargeRequest}, or refuses it with
 * {@code invalid_request}.
 *
 * <p>The body is read with JSON-P rather than bound with JSON-B on purpose: a binder would truncate
 * an amount of {@code 1.5} or accept {@code "100"} as a number, and money must never be guessed.
 */
@Dependent
public class ChargeRequestReader {

  /** The code of every refusal of this reader. */
  public static final String INVALID_REQUEST = "invalid_request";

  private final Validator validator;

  @Inject
  public ChargeRequestReader(Validator validator) {
    this.validator = validator;
  }

  /**
   * Parses and validates a request body.
   *
   * @throws InvalidRequestException when the body is not a JSON object or breaks a rule
   */
  public ChargeRequest read(String body) {
    ChargeRequest request = parse(body);
    validate(request);
    return request;
  }

  private ChargeRequest parse(String body) {
    if (body == null || body.isBlank()) {
      throw new InvalidRequestException(INVALID_REQUEST, "the request body must be a JSON object");
    }
    JsonObject json = readObject(body);
    return new ChargeRequest(
        integer(json, "amount"),
        string(json, "currency"),
        string(json, "orderReference"),
        string(json, "paymentMethod"));
  }

  private static JsonObject readObject(String body) {
    try (JsonReader reader = Json.createReader(new StringReader(body))) {
      JsonStructure structure = reader.read();
      if (structure.getValueType() != JsonValue.ValueType.OBJECT) {
        throw new InvalidRequestException(
            INVALID_REQUEST, "the request body must be a JSON object");
      }
      return structure.asJsonObject();
    } catch (JsonException | IllegalStateException e) {
      // Parsson reports malformed JSON as JsonParsingException (a JsonException); trailing garbage
      // after the object can surface as JsonParsingException too.
      throw new InvalidRequestException(INVALID_REQUEST, "the request body is not valid JSON");
    }
  }

  /**
   * An integral JSON number that fits a long, or null when absent; never a string, never a
   * fraction.
   */
  private static Long integer(JsonObject json, String name) {
    JsonValue value = json.get(name);
    if (value == null || value.getValueType() == JsonValue.ValueType.NULL) {
      return null;
    }
    if (value.getValueType() != JsonValue.ValueType.NUMBER) {
      throw new InvalidRequestException(INVALID_REQUEST, name + ": must be an integer");
    }
    try {
      return ((JsonNumber) value).bigDecimalValue().longValueExact();
    } catch (ArithmeticException e) {
      throw new InvalidRequestException(
          INVALID_REQUEST, name + ": must be a whole number that fits 64 bits");
    }
  }

  private static String string(JsonObject json, String name) {
    JsonValue value = json.get(name);
    if (value == null || value.getValueType() == JsonValue.ValueType.NULL) {
      return null;
    }
    if (value.getValueType() != JsonValue.ValueType.STRING) {
      throw new InvalidRequestException(INVALID_REQUEST, name + ": must be a string");
    }
    return ((JsonString) value).getString();
  }

  private void validate(ChargeRequest request) {
    Set<ConstraintViolation<ChargeRequest>> violations = validator.validate(request);
    if (!violations.isEmpty()) {
      // Sorted, so that the same body always gets the same message.
      String message =
          violations.stream()
              .map(violation -> violation.getPropertyPath() + ": " + violation.getMessage())
              .sorted(Comparator.naturalOrder())
              .collect(Collectors.joining("; "));
      throw new InvalidRequestException(INVALID_REQUEST, message);
    }
  }
}
