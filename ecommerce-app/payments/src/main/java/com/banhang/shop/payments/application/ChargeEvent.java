package com.banhang.shop.payments.application;

import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.util.Map;

/**
 * A charge event the processor sent by webhook, read from its body: {@code charge.succeeded} or
 * {@code charge.failed}, with the charge in {@code data} as the processor describes it, including
 * the gateway key it was made under (docs/payments.md, "Webhooks in").
 *
 * @param eventId the body's {@code id}, the same as the delivery's {@code webhook-id}
 * @param type the body's {@code type}
 * @param charge the charge, to be checked against a payment before anything is recorded
 */
public record ChargeEvent(String eventId, String type, PaymentGateway.ChargeDetails charge) {

  /** The event types the shop processes, and whether each says that money was taken. */
  static final Map<String, Boolean> TYPES =
      Map.of("charge.succeeded", Boolean.TRUE, "charge.failed", Boolean.FALSE);

  /** The body's longest string field the shop keeps (its columns' width). */
  static final int MAX_FIELD = 100;

  /**
   * Reads a charge event from a body whose signature was verified.
   *
   * @param payload the body, as received
   * @param webhookId the delivery's {@code webhook-id}, which the body's {@code id} must equal
   * @throws UnreadableChargeEventException naming what is missing or wrong
   */
  public static ChargeEvent read(String payload, String webhookId)
      throws UnreadableChargeEventException {
    JsonObject body = object(payload);
    String id = text(body, "id");
    if (!id.equals(webhookId)) {
      throw new UnreadableChargeEventException(
          "the body's id " + id + " is not the delivery's webhook-id " + webhookId);
    }
    String type = text(body, "type");
    Boolean succeeded = TYPES.get(type);
    if (succeeded == null) {
      throw new UnreadableChargeEventException("an event type the shop does not process: " + type);
    }
    if (!(body.get("data") instanceof JsonObject data)) {
      throw new UnreadableChargeEventException("the body has no data object");
    }
    // The charge as the processor's charges API shows it: a charge.failed event's charge is
    // "declined", the status a lookup of the same charge answers.
    String status = text(data, "status");
    if (!status.equals(succeeded ? "succeeded" : "declined")) {
      throw new UnreadableChargeEventException(
          "a " + type + " event whose charge's status is " + status);
    }
    return new ChargeEvent(
        id,
        type,
        new PaymentGateway.ChargeDetails(
            text(data, "id"),
            succeeded,
            amount(data),
            text(data, "currency"),
            text(data, "orderReference"),
            text(data, "idempotencyKey")));
  }

  /**
   * The body's {@code type}, or {@code unknown} when it has none: what an unreadable event is
   * listed as.
   */
  public static String typeOf(String payload) {
    try {
      return text(object(payload), "type");
    } catch (UnreadableChargeEventException e) {
      return "unknown";
    }
  }

  private static JsonObject object(String payload) throws UnreadableChargeEventException {
    try (JsonReader reader = Json.createReader(new StringReader(payload))) {
      JsonValue value = reader.readValue();
      if (value instanceof JsonObject object) {
        return object;
      }
      throw new UnreadableChargeEventException("the body is not a JSON object");
    } catch (JsonException e) {
      throw new UnreadableChargeEventException("the body is not JSON");
    }
  }

  private static String text(JsonObject object, String name) throws UnreadableChargeEventException {
    JsonValue value = object.get(name);
    if (value == null || value.getValueType() != JsonValue.ValueType.STRING) {
      throw new UnreadableChargeEventException("no text field " + name);
    }
    String text = object.getString(name);
    if (text.isBlank() || text.length() > MAX_FIELD) {
      throw new UnreadableChargeEventException(
          "the field " + name + " is empty or longer than " + MAX_FIELD + " characters");
    }
    return text;
  }

  private static long amount(JsonObject data) throws UnreadableChargeEventException {
    if (!(data.get("amount") instanceof JsonNumber number) || !number.isIntegral()) {
      throw new UnreadableChargeEventException("no whole amount in minor units");
    }
    try {
      long amount = number.longValueExact();
      if (amount < 0) {
        throw new UnreadableChargeEventException("a negative amount");
      }
      return amount;
    } catch (ArithmeticException e) {
      throw new UnreadableChargeEventException("an amount out of range");
    }
  }
}
