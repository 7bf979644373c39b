package com.banhang.gateway.sandbox.fault;

/**
 * What happens to the delivery of one webhook event, decided when the event is recorded.
 *
 * @param delayMs how long after its charge the event's first delivery is due
 * @param duplicate deliver it once more after its first successful delivery
 * @param reorder hold it back until an event created after it has been sent (or the hold ends)
 * @param loseFirstAttempt record its first attempt as lost without sending anything
 * @param early deliver it from the charge call, before the call answers; no delay, no hold
 * @param reorderMaxHoldMs the longest a held event waits for a later one
 */
public record WebhookFaultDecision(
    long delayMs,
    boolean duplicate,
    boolean reorder,
    boolean loseFirstAttempt,
    boolean early,
    long reorderMaxHoldMs) {

  /** Delivered at once, once, in order. */
  public static final WebhookFaultDecision NONE =
      new WebhookFaultDecision(0, false, false, false, false, 0);
}
