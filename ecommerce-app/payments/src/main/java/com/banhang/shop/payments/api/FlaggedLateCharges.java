package com.banhang.shop.payments.api;

import java.util.List;
import java.util.function.Consumer;

/**
 * The late charges the sweep flagged on their payment (docs/payments.md, "Late charges"), for the
 * operator console: listed, counted, and marked handled once an operator dealt with them at the
 * processor. {@code RECORDED} ones are not listed: the shop recorded them, nothing is left to do.
 * Nothing here moves money. Implemented in the application layer.
 */
public interface FlaggedLateCharges {

  /** {@link FlaggedLateChargeView#flag()} of a double charge: one charge must be refunded. */
  String DOUBLE_CHARGE = "DOUBLE_CHARGE";

  /** {@link FlaggedLateChargeView#flag()} of a charge of another amount, currency or order. */
  String MISMATCH = "MISMATCH";

  /** {@link FlaggedLateChargeView#flag()} of a late decline: nothing was charged. */
  String DECLINED = "DECLINED";

  /**
   * How an operator dealt with a flagged late charge ({@link FlaggedLateChargeView#handling()}).
   * The shop moves no money for either: the mark records what the operator did at the processor.
   */
  enum Handling {
    /** Refunded at the processor. Not for a declined charge: nothing was taken. */
    REFUNDED,
    /** Accepted as it stands (the customer agreed, or it is accounted for otherwise). */
    ACCEPTED
  }

  /**
   * Flagged late charges (double charge, mismatch, declined), newest finding first.
   *
   * @param includeHandled also those an operator marked handled; false: only those nobody has
   */
  List<FlaggedLateChargeView> page(int offset, int limit, boolean includeHandled);

  /** Flagged late charges nobody has marked handled yet, newest finding first. */
  default List<FlaggedLateChargeView> page(int offset, int limit) {
    return page(offset, limit, false);
  }

  /** How many {@link #page(int, int, boolean)} lists in all. */
  long count(boolean includeHandled);

  /** How many flagged late charges nobody has marked handled yet. */
  default long count() {
    return count(false);
  }

  /**
   * How many need an operator: double charges and mismatches that nobody has marked handled yet
   * (the console's Overview). A declined charge took no money, and a handled one is done.
   */
  long countNeedingOperator();

  /**
   * Marks the flagged late charge of {@code paymentId} handled by {@code operator}, with their
   * reason: one conditional update of a flagged payment not yet handled, in one transaction with a
   * {@code LATE_CHARGE_HANDLED} entry of the payment's timeline and {@code audit}. A second mark,
   * by anyone on any node, is refused with who handled it and when, and changes nothing; so is a
   * mark of a payment with no flagged late charge, and {@link Handling#REFUNDED} of a declined one.
   * The shop moves no money here.
   *
   * @param audit called with the answer just before the mark commits, in its transaction (the
   *     console's audit entry): if it throws, nothing is marked and the exception goes on to the
   *     caller. Not called when the mark is refused; the caller records that itself.
   * @return done, or refused with why
   */
  HandlingAnswer markHandled(
      String paymentId,
      Handling handling,
      String operator,
      String reason,
      Consumer<HandlingAnswer> audit);

  /**
   * The answer to {@link #markHandled}.
   *
   * @param result done, or refused (nothing changed)
   * @param message what was done, or why not, in words an operator understands
   * @param charge the late charge as it stands after the answer (marked or not), or null when there
   *     is no such payment
   */
  record HandlingAnswer(Result result, String message, FlaggedLateChargeView charge) {

    /** The kinds of answer. */
    public enum Result {
      /** Marked handled now. */
      DONE,
      /** Not marked: already handled, not flagged, or not given what a mark needs. */
      REFUSED
    }

    public boolean done() {
      return result == Result.DONE;
    }
  }
}
