package com.banhang.shop.admin.application;

import com.banhang.shop.payments.api.GatewayEventView;
import com.banhang.shop.payments.api.PaymentRecord;
import com.banhang.shop.payments.api.TimelineEntry;
import java.util.List;
import java.util.Optional;

/**
 * Everything the payment page shows.
 *
 * @param payment the attempt
 * @param key its key while this attempt's claim is still processing, else empty (settled)
 * @param timeline oldest first: the payments context's entries and the operators' actions on the
 *     key, merged
 * @param resolvable whether an operator may resolve the key by hand now ({@link
 *     com.banhang.shop.payments.api.PaymentResolution#resolvable}); the resolution checks the same
 *     rule again on the server
 * @param gatewayEvents the processor's webhook events matched with the payment, oldest first, each
 *     with its verification and status (their processing is on the timeline as {@code
 *     GATEWAY_EVENT} entries)
 */
public record PaymentPage(
    PaymentRecord payment,
    Optional<StuckOperationDetail> key,
    List<TimelineEntry> timeline,
    boolean resolvable,
    List<GatewayEventView> gatewayEvents) {

  /** The key the payment was made under. */
  public KeyRef keyRef() {
    return new KeyRef(
        payment.tenantId(), StuckOperations.PAYMENTS_CHARGE, payment.idempotencyKey());
  }

  /** What the gateway said last, as reconciliation recorded it, or null when never asked. */
  public String lastGatewayAnswer() {
    return key.map(StuckOperationDetail::lastCheckDetail).orElse(null);
  }
}
