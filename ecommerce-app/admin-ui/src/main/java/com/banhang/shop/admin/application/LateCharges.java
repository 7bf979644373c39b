package com.banhang.shop.admin.application;

import com.banhang.shop.payments.api.FlaggedLateChargeView;
import com.banhang.shop.payments.api.FlaggedLateCharges;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;

/**
 * Read-only: the late charges the payments' sweep flagged for an operator (docs/operations.md,
 * "Late charges"). Nothing here changes them: a double charge is refunded at the processor.
 */
@ApplicationScoped
public class LateCharges {

  @Inject FlaggedLateCharges flagged;
  @Inject AuditLog audit;

  /**
   * Double charges, mismatches and declines, newest finding first, read by {@code operator}: each
   * read is audited ({@value OperatorActions#READ_LATE_CHARGES}), since it shows customers'
   * charges; a read that cannot be audited fails instead of showing them.
   */
  public List<FlaggedLateChargeView> page(String operator, int offset, int limit) {
    List<FlaggedLateChargeView> page = flagged.page(offset, limit);
    audit.append(
        operator,
        OperatorActions.READ_LATE_CHARGES,
        null,
        null,
        ActionResult.done(
            "read "
                + page.size()
                + " late charges from offset "
                + offset
                + " (limit "
                + limit
                + ")"));
    return page;
  }

  /** How many {@link #page} lists in all. */
  public int count() {
    return Math.toIntExact(Math.min(Integer.MAX_VALUE, flagged.count()));
  }

  /** Double charges and mismatches: what an operator must act on. */
  public long countNeedingOperator() {
    return flagged.countNeedingOperator();
  }
}
