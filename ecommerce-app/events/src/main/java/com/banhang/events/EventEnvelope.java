package com.banhang.events;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.StringReader;
import java.time.format.DateTimeFormatter;

/**
 * An event in the CloudEvents 1.0 JSON format (structured mode): the attributes {@code
 * specversion}, {@code id}, {@code source}, {@code type}, {@code subject} (the aggregate's id),
 * {@code time}, {@code datacontenttype} and the event's {@code data}, plus three extension
 * attributes that say where it stands among its aggregate's events: {@code aggregatetype}, {@code
 * aggregatesequence} and {@code tenantid}. Any CloudEvents SDK reads it.
 */
public final class EventEnvelope {

  private EventEnvelope() {}

  /** The envelope of {@code event} as produced by {@code source} (a URI reference). */
  public static JsonObject of(OutboxEvent event, String source) {
    JsonObject data;
    try (JsonReader reader = Json.createReader(new StringReader(event.payload()))) {
      data = reader.readObject();
    }
    return Json.createObjectBuilder()
        .add("specversion", "1.0")
        .add("id", event.id())
        .add("source", source)
        .add("type", event.type())
        .add("subject", event.aggregateId())
        .add("time", DateTimeFormatter.ISO_INSTANT.format(event.createdAt()))
        .add("datacontenttype", "application/json")
        .add("aggregatetype", event.aggregateType())
        .add("aggregatesequence", event.sequence())
        .add("tenantid", event.tenantId())
        .add("data", data)
        .build();
  }

  /** {@link #of} as compact JSON text, the bytes a transport sends. */
  public static String json(OutboxEvent event, String source) {
    return of(event, source).toString();
  }
}
