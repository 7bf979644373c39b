package com.banhang.shop.payments.api;

import jakarta.json.bind.annotation.JsonbProperty;
import java.util.EnumMap;
import java.util.Map;

/**
 * What one run of the late-charge sweep found for the abandoned attempts it examined.
 *
 * @param findings how many keys ended in each finding; named {@code outcomes} in JSON, the name the
 *     operator API has always answered with
 */
public record LateChargeReport(
    int examined, @JsonbProperty("outcomes") Map<Finding, Integer> findings) {

  /** What was found for one abandoned attempt. */
  public enum Finding {
    /** A matching charge on an unpaid order: the attempt is captured, the order paid. */
    RECORDED,
    /** A matching charge, but the order was paid by another attempt: for an operator. */
    DOUBLE_CHARGE,
    /** A charge of another amount, currency or order under the gateway key: for an operator. */
    MISMATCH,
    /** A late decline: nothing was charged. */
    DECLINED,
    /** No charge under the gateway key (yet): asked again on a later run, within the retention. */
    NOT_FOUND,
    /** A matching charge, but another attempt holds the order now: decided on a later run. */
    ORDER_HELD,
    /** The gateway could not be asked: tried next run. */
    GATEWAY_UNREACHABLE,
    /** Decided by another node first, or its gateway key was captured by another attempt. */
    SETTLED_ELSEWHERE,
    /** Unexpected failure; logged, tried next run. */
    FAILED
  }

  /** The report of a run that found {@code results}, one per attempt examined. */
  public static LateChargeReport of(Iterable<Finding> results) {
    Map<Finding, Integer> counts = new EnumMap<>(Finding.class);
    for (Finding finding : Finding.values()) {
      counts.put(finding, 0);
    }
    int examined = 0;
    for (Finding finding : results) {
      counts.merge(finding, 1, Integer::sum);
      examined++;
    }
    return new LateChargeReport(examined, counts);
  }

  /**
   * As the sweep's INFO line has always shown it, the counts under their published name {@code
   * outcomes}, as in JSON.
   */
  @Override
  public String toString() {
    return "LateChargeReport[examined=" + examined + ", outcomes=" + findings + "]";
  }
}
