package com.banhang.shop.payments.domain.model;

/**
 * What the late-charge sweep found under the gateway key of an abandoned attempt whose key was
 * released (docs/payments.md, "Late charges").
 */
public enum LateCharge {
  /** A matching charge, and the order was not paid otherwise: the attempt is captured now. */
  RECORDED,
  /**
   * A matching charge, but the order was meanwhile paid by another attempt: the customer was
   * charged twice. For an operator (refund one charge); never recorded by the shop.
   */
  DOUBLE_CHARGE,
  /** A charge of another amount, currency or order under the key: for an operator. */
  MISMATCH,
  /** The processor declined it: nothing was charged, nothing to do. */
  DECLINED;

  /** Outcomes an operator must look at. */
  public boolean needsOperator() {
    return this == DOUBLE_CHARGE || this == MISMATCH;
  }
}
