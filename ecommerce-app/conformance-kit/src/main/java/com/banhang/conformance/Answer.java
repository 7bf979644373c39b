package com.banhang.conformance;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One HTTP answer as the kit saw it on the wire.
 *
 * @param status the status code
 * @param headers every header, names in lower case, values in the order received
 * @param body the body's bytes, exactly as sent (after removing chunked framing)
 */
public record Answer(int status, Map<String, List<String>> headers, byte[] body) {

  public Answer {
    Map<String, List<String>> lower = new TreeMap<>();
    headers.forEach(
        (name, values) ->
            lower
                .computeIfAbsent(name.toLowerCase(Locale.ROOT), n -> new java.util.ArrayList<>())
                .addAll(values));
    lower.replaceAll((name, values) -> List.copyOf(values));
    headers = java.util.Collections.unmodifiableMap(lower);
  }

  /** The first value of a header, if any. */
  public Optional<String> header(String name) {
    List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
    return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.get(0));
  }

  public boolean success() {
    return status >= 200 && status < 300;
  }

  /**
   * {@code Idempotent-Replayed: true}, the shop's mark of a replay (docs/contract.md section 5).
   */
  public boolean replayed() {
    return header("Idempotent-Replayed").map(v -> v.trim().equalsIgnoreCase("true")).orElse(false);
  }

  /** The media type of {@code Content-Type}, lower case, without parameters; empty if none. */
  public String mediaType() {
    return header("Content-Type")
        .map(v -> v.split(";", 2)[0].trim().toLowerCase(Locale.ROOT))
        .orElse("");
  }

  public String text() {
    return new String(body, StandardCharsets.UTF_8);
  }

  /** The body as a JSON object, if it is one. */
  public Optional<JsonObject> json() {
    try (JsonReader reader = Json.createReader(new ByteArrayInputStream(body))) {
      JsonValue value = reader.readValue();
      return value instanceof JsonObject object ? Optional.of(object) : Optional.empty();
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  /** A string or number member of the JSON body, as text, if the body is an object with it. */
  public Optional<String> member(String name) {
    return json()
        .map(o -> o.get(name))
        .filter(v -> v instanceof JsonString || v instanceof jakarta.json.JsonNumber)
        .map(v -> v instanceof JsonString s ? s.getString() : v.toString());
  }

  /** Status, type and the start of the body, on one line, for a report. */
  public String summary() {
    String text = text().replaceAll("\\s+", " ").trim();
    if (text.length() > 160) {
      text = text.substring(0, 160) + "...";
    }
    String type = header("Content-Type").orElse("no Content-Type");
    return status + " " + type + (text.isEmpty() ? "" : " " + text);
  }
}
