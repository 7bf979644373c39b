package com.banhang.gateway.sandbox.webhook;

import java.util.Locale;

/** Why an attempt to deliver an event was made. */
public enum WebhookAttemptKind {
  /** A scheduled delivery: the first one or a retry after a failure. */
  DELIVERY,
  /** A scheduled delivery the loss fault swallowed: nothing was sent. */
  LOST,
  /** The duplicate fault: the event again after its successful delivery. */
  DUPLICATE,
  /** An operator's resend through the replay endpoints. */
  RESEND;

  /** The name in JSON and in the database. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The kind stored under {@code wireName}. */
  public static WebhookAttemptKind fromWireName(String wireName) {
    return valueOf(wireName.toUpperCase(Locale.ROOT));
  }
}
