package com.banhang.shop.payments.api;

import java.time.Instant;

/**
 * A charge the late-charge sweep found under an abandoned attempt's gateway key and left for an
 * operator (docs/payments.md, "Late charges"), as the operator console shows it, with the
 * operator's mark once someone dealt with it.
 *
 * @param paymentId the abandoned attempt's id
 * @param tenantId the tenant the attempt belongs to
 * @param orderId the order the attempt was for
 * @param amount the attempt's amount, in the currency's minor unit
 * @param currency ISO 4217 code
 * @param flag {@code DOUBLE_CHARGE} (the order was meanwhile paid by another attempt: the customer
 *     was charged twice), {@code MISMATCH} (the charge's amount, currency or order is not the
 *     attempt's) or {@code DECLINED} (nothing was charged)
 * @param gatewayChargeId the charge the gateway holds under the attempt's gateway key
 * @param detail the sweep's explanation
 * @param foundAt when the sweep found it
 * @param handledAt when an operator marked it handled, or null while nobody has
 * @param handledBy the operator who did
 * @param handling how: {@code REFUNDED} or {@code ACCEPTED} ({@link FlaggedLateCharges.Handling})
 * @param handledReason the operator's reason, as given
 */
public record FlaggedLateChargeView(
    String paymentId,
    String tenantId,
    String orderId,
    long amount,
    String currency,
    String flag,
    String gatewayChargeId,
    String detail,
    Instant foundAt,
    Instant handledAt,
    String handledBy,
    String handling,
    String handledReason) {

  /** A late charge nobody has marked handled yet. */
  public FlaggedLateChargeView(
      String paymentId,
      String tenantId,
      String orderId,
      long amount,
      String currency,
      String flag,
      String gatewayChargeId,
      String detail,
      Instant foundAt) {
    this(
        paymentId,
        tenantId,
        orderId,
        amount,
        currency,
        flag,
        gatewayChargeId,
        detail,
        foundAt,
        null,
        null,
        null,
        null);
  }

  /** The customer was charged twice: one charge must be refunded at the processor. */
  public boolean doubleCharge() {
    return FlaggedLateCharges.DOUBLE_CHARGE.equals(flag);
  }

  /** An operator marked it handled (refunded at the processor, or accepted). */
  public boolean handled() {
    return handledAt != null;
  }
}
