package com.banhang.gateway.sandbox.api;

import com.banhang.gateway.sandbox.charge.InvalidRequestException;
import com.banhang.gateway.sandbox.fault.DropMode;
import com.banhang.gateway.sandbox.fault.FaultSettings;
import com.banhang.gateway.sandbox.fault.InvalidFaultSettingsException;
import com.banhang.gateway.sandbox.fault.LatencyPhase;
import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonStructure;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.util.Arrays;
import java.util.Set;

/**
 * Reads the body of {@code PUT /v1/faults}: members left out take the configured defaults, and
 * anything unknown or out of range is refused with {@code invalid_faults}, so that a typo never
 * passes for "no fault". Its member readers serve {@link WebhookFaultSettingsReader} too, so both
 * bodies follow one set of rules.
 */
public final class FaultSettingsReader {

  /** The code of every refusal of this reader. */
  public static final String INVALID_FAULTS = "invalid_faults";

  private static final Set<String> MEMBERS =
      Set.of(
          "latencyMs",
          "slowProbability",
          "slowLatencyMs",
          "latencyPhase",
          "dropResponseProbability",
          "dropMode",
          "errorBeforeChargeProbability",
          "loseRequestProbability",
          "seed",
          "faultsOnReplays");

  private FaultSettingsReader() {}

  /**
   * @param body a JSON object with any of the settings' members
   * @param defaults what the members left out take
   * @throws InvalidRequestException {@code invalid_faults}
   */
  public static FaultSettings read(String body, FaultSettings defaults) {
    JsonObject json = readObject(body);
    for (String member : json.keySet()) {
      if (!MEMBERS.contains(member)) {
        throw invalid("unknown member " + member + "; known: " + MEMBERS);
      }
    }
    try {
      return new FaultSettings(
          whole(json, "latencyMs", defaults.latencyMs()),
          fraction(json, "slowProbability", defaults.slowProbability()),
          whole(json, "slowLatencyMs", defaults.slowLatencyMs()),
          constant(json, "latencyPhase", LatencyPhase.class, defaults.latencyPhase()),
          fraction(json, "dropResponseProbability", defaults.dropResponseProbability()),
          constant(json, "dropMode", DropMode.class, defaults.dropMode()),
          fraction(json, "errorBeforeChargeProbability", defaults.errorBeforeChargeProbability()),
          fraction(json, "loseRequestProbability", defaults.loseRequestProbability()),
          whole(json, "seed", defaults.seed()),
          flag(json, "faultsOnReplays", defaults.faultsOnReplays()));
    } catch (InvalidFaultSettingsException e) {
      throw invalid(e.getMessage());
    }
  }

  static JsonObject readObject(String body) {
    if (body == null || body.isBlank()) {
      throw invalid("the request body must be a JSON object; {} takes every default");
    }
    try (JsonReader reader = Json.createReader(new StringReader(body))) {
      JsonStructure structure = reader.read();
      if (structure.getValueType() != JsonValue.ValueType.OBJECT) {
        throw invalid("the request body must be a JSON object");
      }
      return structure.asJsonObject();
    } catch (JsonException | IllegalStateException e) {
      throw invalid("the request body is not valid JSON");
    }
  }

  static JsonValue member(JsonObject json, String name) {
    JsonValue value = json.get(name);
    return value == null || value.getValueType() == JsonValue.ValueType.NULL ? null : value;
  }

  static long whole(JsonObject json, String name, long fallback) {
    JsonValue value = member(json, name);
    if (value == null) {
      return fallback;
    }
    if (value.getValueType() != JsonValue.ValueType.NUMBER) {
      throw invalid(name + ": must be a whole number");
    }
    try {
      return ((JsonNumber) value).bigDecimalValue().longValueExact();
    } catch (ArithmeticException e) {
      throw invalid(name + ": must be a whole number that fits 64 bits");
    }
  }

  static double fraction(JsonObject json, String name, double fallback) {
    JsonValue value = member(json, name);
    if (value == null) {
      return fallback;
    }
    if (value.getValueType() != JsonValue.ValueType.NUMBER) {
      throw invalid(name + ": must be a number between 0 and 1");
    }
    return ((JsonNumber) value).doubleValue();
  }

  static boolean flag(JsonObject json, String name, boolean fallback) {
    JsonValue value = member(json, name);
    if (value == null) {
      return fallback;
    }
    if (value.getValueType() == JsonValue.ValueType.TRUE) {
      return true;
    }
    if (value.getValueType() == JsonValue.ValueType.FALSE) {
      return false;
    }
    throw invalid(name + ": must be true or false");
  }

  static <E extends Enum<E>> E constant(JsonObject json, String name, Class<E> type, E fallback) {
    JsonValue value = member(json, name);
    if (value == null) {
      return fallback;
    }
    String text =
        value.getValueType() == JsonValue.ValueType.STRING ? ((JsonString) value).getString() : "";
    for (E candidate : type.getEnumConstants()) {
      if (candidate.name().equals(text)) {
        return candidate;
      }
    }
    throw invalid(name + ": must be one of " + Arrays.toString(type.getEnumConstants()));
  }

  static InvalidRequestException invalid(String message) {
    return new InvalidRequestException(INVALID_FAULTS, message);
  }
}
