package com.banhang.shop.payments.api;

/**
 * What an operator does with a payments.charge key that reconciliation cannot settle (typically
 * {@code NEEDS_OPERATOR}: the gateway no longer knows the payment's gateway key, so it may have
 * forgotten a charge), after checking the processor. Expected refusals are answers ({@link
 * Resolution}), never exceptions; each says why. Implemented in the application layer.
 */
public interface PaymentResolution {

  /**
   * Whether an operator may resolve a processing key by hand: only when reconciliation cannot
   * settle it ({@code NEEDS_OPERATOR}), or when its lease has run out (its request is gone) and it
   * was checked at least once. A key whose request may still be running, or that nobody has asked
   * the gateway about yet, is left to reconciliation. The console offers the actions by this rule,
   * and the resolution refuses by it.
   *
   * @param lastCheck the key's last reconciliation check, or null when never checked
   * @param leaseExpired whether the key's lease has run out
   */
  static boolean resolvable(String lastCheck, boolean leaseExpired) {
    return "NEEDS_OPERATOR".equals(lastCheck) || (leaseExpired && lastCheck != null);
  }

  /**
   * The customer was charged, with this charge id: records the payment of the key as captured by
   * {@code chargeId} and completes the key with the 201. The charge is looked up by its id and
   * accepted only if it is a succeeded charge of exactly this payment's amount, currency and order.
   *
   * @param override record it even though the gateway does not know {@code chargeId} (the operator
   *     confirmed the charge elsewhere, e.g. in the processor's dashboard); never overrides a
   *     declined charge or one of another amount, currency or order
   */
  default Resolution resolveAsCharged(
      String tenant, String key, String chargeId, boolean override) {
    return resolveAsCharged(tenant, key, chargeId, override, ResolutionAudit.NONE);
  }

  /**
   * As {@link #resolveAsCharged(String, String, String, boolean)}, with {@code audit} written in
   * the transaction that records the charge.
   */
  Resolution resolveAsCharged(
      String tenant, String key, String chargeId, boolean override, ResolutionAudit audit);

  /**
   * Records that nothing was charged: a pending attempt is abandoned (the order may be paid again)
   * and the key released, so the customer's retry runs as new. A key whose current claim committed
   * no attempt (nothing was sent) is only released.
   */
  default Resolution resolveAsNotCharged(String tenant, String key) {
    return resolveAsNotCharged(tenant, key, ResolutionAudit.NONE);
  }

  /**
   * As {@link #resolveAsNotCharged(String, String)}, with {@code audit} written in the transaction
   * that abandons the attempt and releases the key.
   */
  Resolution resolveAsNotCharged(String tenant, String key, ResolutionAudit audit);
}
