package com.banhang.events.webhooks;

/**
 * A delivery the dispatcher holds under its lease, with what it sends.
 *
 * @param body the exact bytes to send, as text: the same on every attempt
 * @param attempts attempts made, this one included
 */
public record ClaimedDelivery(
    String id, String eventId, String endpoint, String body, int attempts) {}
