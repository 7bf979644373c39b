package com.banhang.gateway.sandbox.webhook;

import com.banhang.gateway.sandbox.charge.ChargeStatus;
import java.util.Arrays;
import java.util.Optional;

/** What a webhook event tells the shop. */
public enum WebhookEventType {
  /** The card was charged. */
  CHARGE_SUCCEEDED("charge.succeeded"),
  /** The card was declined: nothing was charged. */
  CHARGE_FAILED("charge.failed");

  private final String wireName;

  WebhookEventType(String wireName) {
    this.wireName = wireName;
  }

  /** The {@code type} of the event's body, and its name in the database. */
  public String wireName() {
    return wireName;
  }

  /** The event a settled charge causes. */
  public static WebhookEventType of(ChargeStatus status) {
    return switch (status) {
      case SUCCEEDED -> CHARGE_SUCCEEDED;
      case DECLINED -> CHARGE_FAILED;
    };
  }

  /** The type with this wire name, if any. */
  public static Optional<WebhookEventType> fromWireName(String wireName) {
    return Arrays.stream(values()).filter(type -> type.wireName.equals(wireName)).findFirst();
  }
}
