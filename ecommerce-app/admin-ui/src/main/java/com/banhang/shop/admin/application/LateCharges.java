package com.banhang.shop.admin.application;

import com.banhang.shop.payments.api.FlaggedLateChargeView;
import com.banhang.shop.payments.api.FlaggedLateCharges;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;

/**
 * The late charges the payments' sweep flagged for an operator (docs/operations.md, "Late
 * charges"), read here; an operator marks one handled through {@link
 * OperatorActions#markLateChargeHandled}. Nothing here moves money: a double charge is refunded at
 * the processor.
 */
@ApplicationScoped
public class LateCharges {

  @Inject FlaggedLateCharges flagged;
  @Inject AuditLog audit;

  /**
   * Double charges, mismatches and declines nobody has marked handled, newest finding first, read
   * by {@code operator}: each read is audited ({@value OperatorActions#READ_LATE_CHARGES}), since
   * it shows customers' charges; a read that cannot be audited fails instead of showing them.
   */
  public List<FlaggedLateChargeView> page(String operator, int offset, int limit) {
    return page(operator, offset, limit, false);
  }

  /** As {@link #page(String, int, int)}; {@code includeHandled} adds the ones marked handled. */
  public List<FlaggedLateChargeView> page(
      String operator, int offset, int limit, boolean includeHandled) {
    List<FlaggedLateChargeView> page = flagged.page(offset, limit, includeHandled);
    audit.append(
        operator,
        OperatorActions.READ_LATE_CHARGES,
        null,
        null,
        ActionResult.done(
            "read "
                + page.size()
                + (includeHandled ? " late charges, handled ones included," : " late charges")
                + " from offset "
                + offset
                + " (limit "
                + limit
                + ")"));
    return page;
  }

  /** How many {@link #page(String, int, int)} lists in all. */
  public int count() {
    return count(false);
  }

  /** How many {@link #page(String, int, int, boolean)} lists in all. */
  public int count(boolean includeHandled) {
    return Math.toIntExact(Math.min(Integer.MAX_VALUE, flagged.count(includeHandled)));
  }

  /** Double charges and mismatches nobody has marked handled: what an operator must act on. */
  public long countNeedingOperator() {
    return flagged.countNeedingOperator();
  }
}
