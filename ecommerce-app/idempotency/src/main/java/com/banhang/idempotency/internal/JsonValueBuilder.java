package com.banhang.idempotency.internal;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.util.HashSet;
import java.util.Set;

/** An object or array being read by {@link RequestFingerprint}, which remembers member names. */
final class JsonValueBuilder {

  private final JsonObjectBuilder object;
  private final JsonArrayBuilder array;
  private final Set<String> names = new HashSet<>();
  private String pendingName;

  private JsonValueBuilder(JsonObjectBuilder object, JsonArrayBuilder array) {
    this.object = object;
    this.array = array;
  }

  static JsonValueBuilder object() {
    return new JsonValueBuilder(Json.createObjectBuilder(), null);
  }

  static JsonValueBuilder array() {
    return new JsonValueBuilder(null, Json.createArrayBuilder());
  }

  /** Announces the next member's name; false if this object already has a member of that name. */
  boolean name(String name) {
    pendingName = name;
    return names.add(name);
  }

  void add(JsonValue value) {
    if (object != null) {
      object.add(pendingName, value);
    } else {
      array.add(value);
    }
  }

  JsonValue build() {
    return object != null ? object.build() : array.build();
  }
}
