package com.banhang.gateway.sandbox.webhook;

import java.util.Locale;

/** Where the delivery of an event stands. */
public enum WebhookEventState {
  /** Not yet taken by the shop (a 2xx); due again at its next attempt time. */
  PENDING,
  /** The shop answered 2xx once; duplicates and resends may still follow. */
  DELIVERED,
  /** Every scheduled attempt failed; only a resend sends it again. */
  FAILED;

  /** The name in JSON and in the database. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The state stored under {@code wireName}. */
  public static WebhookEventState fromWireName(String wireName) {
    return valueOf(wireName.toUpperCase(Locale.ROOT));
  }
}
