package com.banhang.shop.payments.api;

import java.util.List;

/**
 * Read-only: the late charges the sweep flagged on their payment (docs/payments.md, "Late
 * charges"), for the operator console. {@code RECORDED} ones are not listed: the shop recorded
 * them, nothing is left to do. Implemented in the application layer.
 */
public interface FlaggedLateCharges {

  /** {@link FlaggedLateChargeView#flag()} of a double charge: one charge must be refunded. */
  String DOUBLE_CHARGE = "DOUBLE_CHARGE";

  /** {@link FlaggedLateChargeView#flag()} of a charge of another amount, currency or order. */
  String MISMATCH = "MISMATCH";

  /** {@link FlaggedLateChargeView#flag()} of a late decline: nothing was charged. */
  String DECLINED = "DECLINED";

  /** Flagged late charges (double charge, mismatch, declined), newest finding first. */
  List<FlaggedLateChargeView> page(int offset, int limit);

  /** How many there are (double charge, mismatch, declined). */
  long count();

  /** How many need an operator: double charges and mismatches. */
  long countNeedingOperator();
}
