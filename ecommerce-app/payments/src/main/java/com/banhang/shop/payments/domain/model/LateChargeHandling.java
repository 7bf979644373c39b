package com.banhang.shop.payments.domain.model;

/**
 * How an operator dealt with a late charge the sweep flagged (docs/payments.md, "Late charges").
 * Either way the shop moves no money: the mark records what the operator did elsewhere.
 */
public enum LateChargeHandling {
  /** The operator refunded the charge at the processor. */
  REFUNDED,
  /** The operator accepts the charge as it stands (the customer agreed, or it is accounted for). */
  ACCEPTED
}
