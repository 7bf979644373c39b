package com.banhang.shop.payments.domain.model;

/** Where a payment attempt stands. */
public enum PaymentStatus {
  /** Committed before the gateway call; the gateway may or may not have charged yet. */
  PENDING,
  /** The gateway charged the card. */
  CAPTURED,
  /** The gateway declined the card: final for this attempt. */
  DECLINED,
  /** Certainly not charged (the gateway refused before charging, or has no charge for the key). */
  ABANDONED;

  /** Whether this attempt still holds the order: only one may, so an order is never paid twice. */
  public boolean holdsOrder() {
    return this == PENDING || this == CAPTURED;
  }
}
