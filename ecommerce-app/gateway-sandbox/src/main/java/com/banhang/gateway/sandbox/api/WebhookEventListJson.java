package com.banhang.gateway.sandbox.api;

import jakarta.json.bind.annotation.JsonbPropertyOrder;
import java.util.List;

/**
 * {@code GET /v1/webhooks/events}: the events created since a time, oldest first.
 *
 * @param enabled whether webhooks are on (off: no events are recorded)
 * @param events the events with their attempts
 */
@JsonbPropertyOrder({"enabled", "events"})
public record WebhookEventListJson(boolean enabled, List<WebhookEventJson> events) {}
