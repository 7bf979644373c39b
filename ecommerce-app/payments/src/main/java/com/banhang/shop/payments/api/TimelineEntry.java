package com.banhang.shop.payments.api;

import java.time.Instant;

/**
 * One line of a payment's timeline (append-only; never changed once written).
 *
 * @param at when it happened
 * @param kind what happened, one of {@link Kind}'s names (a console may add its own, such as the
 *     operator's actions from the audit)
 * @param detail what the gateway, the shop or the customer was told or answered, in words
 * @param actor who did it: {@code customer}, {@code shop}, {@code reconciliation}, {@code
 *     late-charge-sweep} or an operator's name
 * @param paymentId the attempt it belongs to, or null for an entry of the key alone
 */
public record TimelineEntry(
    Instant at, String kind, String detail, String actor, String paymentId) {

  /** What the payments context writes. */
  public enum Kind {
    /** The attempt was committed PENDING under the key's claim, before the gateway call. */
    ATTEMPT_STARTED,
    /** One try at the gateway failed (timeout, 5xx, connection); the detail says how. */
    GATEWAY_TRY_FAILED,
    /** The gateway answered the charge: succeeded or declined, with its charge id. */
    GATEWAY_ANSWERED,
    /** The shop could not learn whether the gateway charged: the key waits for reconciliation. */
    OUTCOME_UNKNOWN,
    /** Certainly not charged (or refused by the processor): the attempt let go of the order. */
    ABANDONED,
    /** The payment was recorded as captured and the order paid. */
    CAPTURED,
    /** The payment was recorded as declined. */
    DECLINED,
    /** Reconciliation asked the gateway about the key; the detail says what it answered. */
    RECONCILIATION_CHECK,
    /** The late-charge sweep's finding for an abandoned attempt. */
    LATE_CHARGE_CHECK,
    /**
     * An operator marked the attempt's flagged late charge handled (refunded at the processor, or
     * accepted); the shop moved no money.
     */
    LATE_CHARGE_HANDLED,
    /** A retry of the customer's request with the key, and what it was answered. */
    CUSTOMER_RETRY,
    /**
     * An event the processor sent by webhook about the attempt's charge, and what its processing
     * did: settled, confirmed or flagged (docs/payments.md, "Webhooks in").
     */
    GATEWAY_EVENT
  }
}
