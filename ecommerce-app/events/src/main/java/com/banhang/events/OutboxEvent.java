package com.banhang.events;

import java.time.Instant;

/**
 * An event as the outbox holds it, claimed by the relay for publishing.
 *
 * @param id the event's id, the same on every delivery: receivers deduplicate by it
 * @param sequence its place among its aggregate's events, from 1 without gaps
 * @param attempts how many times the relay has claimed it, this time included
 */
public record OutboxEvent(
    String id,
    String aggregateType,
    String aggregateId,
    long sequence,
    String type,
    String tenantId,
    String payload,
    Instant createdAt,
    int attempts) {}
