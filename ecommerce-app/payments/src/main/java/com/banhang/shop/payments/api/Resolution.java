package com.banhang.shop.payments.api;

/**
 * What became of an operator's resolution of a payments.charge key ({@link PaymentResolution}).
 *
 * @param result what happened
 * @param message why, in words an operator understands (also when it was refused)
 * @param paymentId the payment concerned, or null when there is none
 * @param orderId its order, or null when there is no attempt
 */
public record Resolution(Result result, String message, String paymentId, String orderId) {

  /** The kinds of answer to an operator's resolution. */
  public enum Result {
    /** Done: the key is completed (charged) or released (not charged). */
    RESOLVED,
    /**
     * Not done, and doing it again would not change that: the message says why. Nothing changed.
     */
    REFUSED,
    /**
     * Not done: the gateway does not know the charge; the operator must confirm (override) that the
     * customer was charged. Nothing changed.
     */
    CONFIRMATION_NEEDED,
    /** Not done because something failed (the gateway could not be asked); may be tried again. */
    FAILED
  }
}
