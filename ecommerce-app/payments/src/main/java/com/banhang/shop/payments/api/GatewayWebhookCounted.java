package com.banhang.shop.payments.api;

import java.util.List;

/**
 * CDI event: one thing happened to a webhook from the processor, so that metrics can count it
 * (docs/payments.md, "Webhooks in"): a delivery refused, kept, or a duplicate; an event's
 * processing settled, confirmed, flagged, parked, waited or failed. {@code flagged} and {@code
 * parked} need an operator; a rise in {@code refused} is a secret out of step with the processor's,
 * or someone forging deliveries.
 *
 * @param result one of {@link #RESULTS}
 */
public record GatewayWebhookCounted(String result) {

  /** Every result, each a series from the start. */
  public static final List<String> RESULTS =
      List.of(
          "refused",
          "received",
          "duplicate",
          "settled",
          "confirmed",
          "flagged",
          "parked",
          "waited",
          "failed");
}
