package com.banhang.shop.payments.application;

import com.banhang.shop.payments.api.FlaggedLateChargeView;
import com.banhang.shop.payments.api.FlaggedLateCharges;
import com.banhang.shop.payments.api.TimelineEntry.Kind;
import com.banhang.shop.payments.domain.model.LateCharge;
import com.banhang.shop.payments.domain.model.LateChargeHandling;
import com.banhang.shop.payments.domain.model.Payment;
import com.banhang.shop.payments.domain.model.PaymentRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The late charges the sweep flagged on their payment (docs/payments.md, "Late charges"), for the
 * operator console: listed, counted, and marked handled. {@code RECORDED} ones are not listed: the
 * shop recorded them, nothing is left to do.
 *
 * <p>Marking handled moves no money: the operator refunded the charge at the processor, or accepts
 * it as it stands, and the mark records that, so that the Overview's count of charges needing an
 * operator can reach zero. The sweep's flag and explanation stay as they were found.
 */
@ApplicationScoped
public class DefaultFlaggedLateCharges implements FlaggedLateCharges {

  /** Every flag an operator is shown. */
  static final Set<LateCharge> FLAGGED =
      EnumSet.of(LateCharge.DOUBLE_CHARGE, LateCharge.MISMATCH, LateCharge.DECLINED);

  /** The flags that need an operator: a declined charge took no money. */
  static final Set<LateCharge> NEEDING_OPERATOR =
      EnumSet.of(LateCharge.DOUBLE_CHARGE, LateCharge.MISMATCH);

  /** The columns' lengths (V16): a longer value is refused rather than cut. */
  static final int OPERATOR_LENGTH = 100;

  static final int REASON_LENGTH = 1000;

  @Inject PaymentRepository payments;
  @Inject LateChargeMarks marks;
  @Inject Timeline timeline;
  @Inject OneTransaction transaction;

  /** Flagged late charges (double charge, mismatch, declined), newest finding first. */
  @Override
  public List<FlaggedLateChargeView> page(int offset, int limit, boolean includeHandled) {
    return payments
        .flaggedLateCharges(FLAGGED, includeHandled, Math.max(0, offset), Math.max(0, limit))
        .stream()
        .map(DefaultFlaggedLateCharges::view)
        .toList();
  }

  /** How many there are (double charge, mismatch, declined). */
  @Override
  public long count(boolean includeHandled) {
    return payments.countFlaggedLateCharges(FLAGGED, includeHandled);
  }

  /** How many need an operator: double charges and mismatches nobody has marked handled. */
  @Override
  public long countNeedingOperator() {
    return payments.countFlaggedLateCharges(NEEDING_OPERATOR, false);
  }

  @Override
  public HandlingAnswer markHandled(
      String paymentId,
      Handling handling,
      String operator,
      String reason,
      Consumer<HandlingAnswer> audit) {
    Optional<String> missing = missing(paymentId, handling, operator, reason);
    if (missing.isPresent()) {
      return refused(missing.get(), null);
    }
    String by = operator.trim();
    String why = reason.trim();
    LateChargeHandling how = LateChargeHandling.valueOf(handling.name());
    return transaction.run(() -> mark(paymentId.trim(), how, by, why, audit));
  }

  private HandlingAnswer mark(
      String paymentId,
      LateChargeHandling how,
      String operator,
      String reason,
      Consumer<HandlingAnswer> audit) {
    Instant at = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    // A declined charge took no money, so it cannot have been refunded: only accepted.
    Set<LateCharge> markable = how == LateChargeHandling.REFUNDED ? NEEDING_OPERATOR : FLAGGED;
    boolean marked = marks.mark(paymentId, markable, how, operator, reason, at);
    Optional<Payment> found = payments.find(paymentId);
    if (!marked) {
      return refusal(paymentId, how, found);
    }
    // Marked, so the row is there; should the read still miss it, the mark must not commit.
    Payment payment =
        found.orElseThrow(
            () -> new IllegalStateException("payment " + paymentId + " marked but not read"));
    // The mark as written, not as this transaction's entity read it back: the answer must not
    // depend on whether JPA's read sees the JDBC update of the same transaction.
    FlaggedLateChargeView view = withMark(view(payment), at, operator, how.name(), reason);
    HandlingAnswer answer =
        new HandlingAnswer(
            HandlingAnswer.Result.DONE,
            "late charge "
                + payment.lateChargeId()
                + " of payment "
                + paymentId
                + " ("
                + payment.lateCharge()
                + ") marked "
                + how
                + " by "
                + operator
                + "; the shop moved no money"
                + (how == LateChargeHandling.REFUNDED
                    ? ": the refund is the one made at the processor"
                    : ": the charge stands as it is"),
            view);
    timeline.inTransaction(
        payment,
        Kind.LATE_CHARGE_HANDLED,
        Timeline.OPERATOR,
        how
            + " by "
            + operator
            + " (late charge "
            + payment.lateChargeId()
            + ", "
            + payment.lateCharge()
            + "): "
            + reason
            + ". Marked only; the shop moved no money.");
    // Last, so that an entry that cannot be written rolls the mark back with it.
    audit.accept(answer);
    return answer;
  }

  /** Why a mark was not made; the payment as it stands, if there is one. */
  private static HandlingAnswer refusal(
      String paymentId, LateChargeHandling how, Optional<Payment> found) {
    if (found.isEmpty()) {
      return refused("no payment " + paymentId, null);
    }
    Payment payment = found.get();
    LateCharge flag = payment.lateCharge();
    if (flag == null || !FLAGGED.contains(flag)) {
      return refused(
          "payment "
              + paymentId
              + " has no late charge flagged for an operator"
              + (flag == null ? "" : " (" + flag + ": the shop recorded it)")
              + ": nothing to mark",
          null);
    }
    FlaggedLateChargeView view = view(payment);
    if (payment.handledAt() != null) {
      return refused(
          "already handled by "
              + payment.handledBy()
              + " at "
              + payment.handledAt().toInstant()
              + " ("
              + payment.handling()
              + ": "
              + payment.handledReason()
              + "); nothing changed",
          view);
    }
    if (flag == LateCharge.DECLINED && how == LateChargeHandling.REFUNDED) {
      return refused(
          "the late charge of payment "
              + paymentId
              + " was declined: nothing was charged, so there is nothing to refund; mark it"
              + " accepted",
          view);
    }
    return refused("payment " + paymentId + " was not marked; read it again and retry", view);
  }

  private static HandlingAnswer refused(String message, FlaggedLateChargeView view) {
    return new HandlingAnswer(HandlingAnswer.Result.REFUSED, message, view);
  }

  /** What a mark needs and was not given; empty when everything is there. */
  private static Optional<String> missing(
      String paymentId, Handling handling, String operator, String reason) {
    if (paymentId == null || paymentId.isBlank()) {
      return Optional.of("a payment id is required to mark a late charge handled");
    }
    if (handling == null) {
      return Optional.of("say how the late charge was handled: REFUNDED or ACCEPTED");
    }
    if (operator == null || operator.isBlank()) {
      return Optional.of("the operator's name is required to mark a late charge handled");
    }
    if (operator.trim().length() > OPERATOR_LENGTH) {
      return Optional.of("an operator name of at most " + OPERATOR_LENGTH + " characters");
    }
    if (reason == null || reason.isBlank()) {
      return Optional.of("a reason is required to mark a late charge handled");
    }
    if (reason.trim().length() > REASON_LENGTH) {
      return Optional.of(
          "the reason is longer than "
              + REASON_LENGTH
              + " characters: say it shorter, the rest belongs in the ticket");
    }
    return Optional.empty();
  }

  static FlaggedLateChargeView view(Payment payment) {
    return new FlaggedLateChargeView(
        payment.id(),
        payment.tenantId(),
        payment.orderId(),
        payment.amount(),
        payment.currency(),
        payment.lateCharge().name(),
        payment.lateChargeId(),
        payment.lateChargeDetail(),
        instant(payment.lateCheckedAt()),
        instant(payment.handledAt()),
        payment.handledBy(),
        payment.handling() == null ? null : payment.handling().name(),
        payment.handledReason());
  }

  private static FlaggedLateChargeView withMark(
      FlaggedLateChargeView view, Instant at, String by, String handling, String reason) {
    return new FlaggedLateChargeView(
        view.paymentId(),
        view.tenantId(),
        view.orderId(),
        view.amount(),
        view.currency(),
        view.flag(),
        view.gatewayChargeId(),
        view.detail(),
        view.foundAt(),
        at,
        by,
        handling,
        reason);
  }

  private static Instant instant(OffsetDateTime time) {
    return time == null ? null : time.toInstant();
  }
}
