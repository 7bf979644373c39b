package com.banhang.shop.payments.api;

import java.time.Instant;

/**
 * An event the processor sent the shop by webhook, as the operator console shows it: what it said,
 * how its signature was verified, and what its processing did (docs/payments.md, "Webhooks in").
 *
 * @param provider the processor that sent it
 * @param eventId its id, unique per provider (the {@code webhook-id} of every delivery)
 * @param type what it says happened, such as {@code charge.succeeded}
 * @param chargeId the processor's charge it is about, or null when its body names none
 * @param gatewayKey the gateway key the charge was made under, or null
 * @param paymentId the payment it was matched with, or null (none yet, or none known)
 * @param status where its processing stands, one of {@link Status}'s names
 * @param detail what the processing found, in words
 * @param verification how its signature was verified (which secret matched, when it was signed)
 * @param deliveries how many times the processor delivered it (a retry or a duplicate adds one)
 * @param attempts how many times its processing decided or failed (a wait for the payment's own
 *     request still running is not counted)
 * @param receivedAt when its first delivery arrived
 * @param lastReceivedAt when its last delivery arrived
 * @param processedAt when its processing ended (settled, confirmed, flagged or parked), or null
 * @param handledBy the operator who marked a flagged event handled, or null
 * @param handledReason their reason, or null
 */
public record GatewayEventView(
    String provider,
    String eventId,
    String type,
    String chargeId,
    String gatewayKey,
    String paymentId,
    String status,
    String detail,
    String verification,
    int deliveries,
    int attempts,
    Instant receivedAt,
    Instant lastReceivedAt,
    Instant processedAt,
    String handledBy,
    String handledReason) {

  /** Where an event's processing stands. */
  public enum Status {
    /** To be processed (first time, or again after a wait or a failure). */
    PENDING,
    /** It settled its payment: an unknown outcome completed, or a late charge recorded. */
    SETTLED,
    /** The payment already said the same: nothing was changed. */
    CONFIRMED,
    /** It contradicts the shop's record: for an operator; nothing was applied. */
    FLAGGED,
    /**
     * It could not be processed (unknown type, unreadable, failed too often): an operator may
     * retry.
     */
    PARKED
  }
}
