package com.banhang.shop.payments.application;

import com.banhang.shop.payments.api.FlaggedLateChargeView;
import com.banhang.shop.payments.api.FlaggedLateCharges;
import com.banhang.shop.payments.domain.model.LateCharge;
import com.banhang.shop.payments.domain.model.Payment;
import com.banhang.shop.payments.domain.model.PaymentRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Read-only: the late charges the sweep flagged on their payment (docs/payments.md, "Late
 * charges"), for the operator console. {@code RECORDED} ones are not listed: the shop recorded
 * them, nothing is left to do.
 */
@ApplicationScoped
public class DefaultFlaggedLateCharges implements FlaggedLateCharges {

  /** Every flag an operator is shown. */
  static final Set<LateCharge> FLAGGED =
      EnumSet.of(LateCharge.DOUBLE_CHARGE, LateCharge.MISMATCH, LateCharge.DECLINED);

  /** The flags that need an operator: a declined charge took no money. */
  static final Set<LateCharge> NEEDING_OPERATOR =
      EnumSet.of(LateCharge.DOUBLE_CHARGE, LateCharge.MISMATCH);

  @Inject PaymentRepository payments;

  /** Flagged late charges (double charge, mismatch, declined), newest finding first. */
  @Override
  public List<FlaggedLateChargeView> page(int offset, int limit) {
    return payments.flaggedLateCharges(FLAGGED, Math.max(0, offset), Math.max(0, limit)).stream()
        .map(DefaultFlaggedLateCharges::view)
        .toList();
  }

  /** How many there are (double charge, mismatch, declined). */
  @Override
  public long count() {
    return payments.countFlaggedLateCharges(FLAGGED);
  }

  /** How many need an operator: double charges and mismatches. */
  @Override
  public long countNeedingOperator() {
    return payments.countFlaggedLateCharges(NEEDING_OPERATOR);
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
        payment.lateCheckedAt() == null ? null : payment.lateCheckedAt().toInstant());
  }
}
