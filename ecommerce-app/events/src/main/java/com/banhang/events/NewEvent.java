package com.banhang.events;

import java.util.Objects;

/**
 * An event to record in the outbox: what happened ({@code type}), to which aggregate, for which
 * tenant, with its data as a JSON document. The outbox gives it its id, its time and its place in
 * the aggregate's sequence.
 *
 * @param aggregateType the kind of thing it happened to, e.g. {@code order}; with {@code
 *     aggregateId} it names the stream whose order the relay keeps
 * @param aggregateId that thing's id
 * @param type the event's type, a CloudEvents {@code type}
 * @param tenantId the customer (tenant) it belongs to, which decides who may receive it
 * @param payload the event's data, a JSON object as text
 */
public record NewEvent(
    String aggregateType, String aggregateId, String type, String tenantId, String payload) {

  public NewEvent {
    requireText(aggregateType, "aggregateType", 32);
    requireText(aggregateId, "aggregateId", 64);
    requireText(type, "type", 100);
    requireText(tenantId, "tenantId", 100);
    Objects.requireNonNull(payload, "payload");
  }

  private static void requireText(String value, String name, int maxLength) {
    if (value == null || value.isBlank() || value.length() > maxLength) {
      throw new IllegalArgumentException(name + " must be 1 to " + maxLength + " characters");
    }
  }
}
