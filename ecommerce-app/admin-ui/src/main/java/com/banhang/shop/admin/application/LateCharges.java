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

  /** Double charges, mismatches and declines, newest finding first. */
  public List<FlaggedLateChargeView> page(int offset, int limit) {
    return flagged.page(offset, limit);
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
