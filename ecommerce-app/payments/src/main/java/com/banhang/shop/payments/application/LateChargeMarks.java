package com.banhang.shop.payments.application;

import com.banhang.shop.payments.domain.model.LateCharge;
import com.banhang.shop.payments.domain.model.LateChargeHandling;
import java.time.Instant;
import java.util.Set;

/**
 * The operator's mark on a flagged late charge (payment's columns handled_at, handled_by, handling,
 * handled_reason, V16). Implemented in infrastructure.
 */
public interface LateChargeMarks {

  /**
   * Marks the payment handled in one conditional update, in the caller's transaction: only when its
   * late charge is one of {@code flags} and nobody has marked it yet. Two operators marking at
   * once, on any node, mark it once: the database applies one update, the other matches no row.
   *
   * @return whether the payment was marked now
   */
  boolean mark(
      String paymentId,
      Set<LateCharge> flags,
      LateChargeHandling handling,
      String operator,
      String reason,
      Instant at);
}
