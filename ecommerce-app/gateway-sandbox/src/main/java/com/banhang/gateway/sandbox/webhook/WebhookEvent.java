package com.banhang.gateway.sandbox.webhook;

import java.time.Instant;

/**
 * An event as stored, with where its delivery stands and the delivery faults drawn for it.
 *
 * @param id {@code evt_...}, derived from the charge and the type: the {@code webhook-id} of every
 *     delivery of it
 * @param type what happened
 * @param chargeId the charge it is about
 * @param payload the JSON body, fixed when the event is recorded so every delivery sends the same
 *     bytes
 * @param createdAt when it was recorded (the charge's commit)
 * @param state delivered, pending or given up
 * @param nextAttemptAt when a pending event is due
 * @param failedAttempts scheduled attempts that failed (lost ones included), for the backoff
 * @param held held back by the reorder fault until a later event is sent
 * @param loseFirstAttempt its first scheduled attempt is to be lost
 * @param duplicate to be delivered once more after its first success
 * @param early delivered by the charge call before it answers
 */
public record WebhookEvent(
    String id,
    WebhookEventType type,
    String chargeId,
    String payload,
    Instant createdAt,
    WebhookEventState state,
    Instant nextAttemptAt,
    int failedAttempts,
    boolean held,
    boolean loseFirstAttempt,
    boolean duplicate,
    boolean early) {}
