package com.banhang.events.webhooks;

import java.time.Instant;

/**
 * One line of the delivery log: one attempt to send a delivery.
 *
 * @param number the delivery's attempt count when it was made (from 1 again after an operator's
 *     retry)
 * @param httpStatus the subscriber's answer, null when none came (timeout, refused connection,
 *     refused target)
 * @param error why it failed, null when it succeeded
 * @param durationMillis from sending the request to the end of the answer
 */
public record DeliveryAttempt(
    String deliveryId,
    int number,
    Instant attemptedAt,
    Integer httpStatus,
    String error,
    long durationMillis) {}
