package com.banhang.shop.payments.api;

import java.time.Duration;

/**
 * The late-charge sweep (docs/payments.md, "Late charges"): finds charges that landed after their
 * payment was abandoned and its key released. What the schedule and the operator REST API call;
 * implemented in the application layer.
 */
public interface LateChargeSweep {

  /** One scheduled run. */
  LateChargeReport sweep();

  /**
   * One run over attempts not asked about within {@code recheck} ({@code PT0S}: every candidate, an
   * operator's run).
   */
  LateChargeReport sweep(Duration recheck);
}
