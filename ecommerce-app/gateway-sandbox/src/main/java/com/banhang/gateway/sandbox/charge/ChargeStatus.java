package com.banhang.gateway.sandbox.charge;

import java.util.Arrays;

/** The final state of a charge. The sandbox decides at once: there is no pending state. */
public enum ChargeStatus {
  SUCCEEDED("succeeded"),
  DECLINED("declined");

  /** The test card that every card processor sandbox declines. */
  public static final String DECLINED_CARD = "pm_card_declined";

  private final String wireName;

  ChargeStatus(String wireName) {
    this.wireName = wireName;
  }

  /** The name used in JSON and in the database. */
  public String wireName() {
    return wireName;
  }

  /**
   * The result of charging a (valid) payment method token: only {@value #DECLINED_CARD} declines.
   */
  public static ChargeStatus forPaymentMethod(String paymentMethod) {
    return DECLINED_CARD.equals(paymentMethod) ? DECLINED : SUCCEEDED;
  }

  /**
   * @throws IllegalArgumentException for a name no status has
   */
  public static ChargeStatus fromWireName(String wireName) {
    return Arrays.stream(values())
        .filter(status -> status.wireName.equals(wireName))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("unknown charge status " + wireName));
  }
}
