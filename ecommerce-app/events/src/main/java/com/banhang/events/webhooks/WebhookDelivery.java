package com.banhang.events.webhooks;

import java.time.Instant;

/**
 * One event's delivery to one subscriber endpoint, as the operator sees it.
 *
 * @param id the delivery's own id, for the operator's actions
 * @param eventId the event's id, sent as {@code webhook-id} on every attempt
 * @param endpoint the subscriber endpoint's configured name
 * @param attempts attempts since it was created or last retried by an operator
 * @param lastStatus the HTTP status of the last answer, null when none came
 * @param lastError why the last attempt failed, null after a success
 */
public record WebhookDelivery(
    String id,
    String eventId,
    String endpoint,
    String tenantId,
    DeliveryStatus status,
    int attempts,
    Instant nextAttemptAt,
    Integer lastStatus,
    String lastError,
    Instant createdAt,
    Instant deliveredAt) {}
