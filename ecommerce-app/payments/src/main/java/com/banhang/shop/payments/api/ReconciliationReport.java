package com.banhang.shop.payments.api;

import jakarta.json.bind.annotation.JsonbProperty;
import java.util.EnumMap;
import java.util.Map;

/**
 * What one reconciliation run did with the payments.charge keys it examined.
 *
 * @param findings how many keys ended in each finding; named {@code outcomes} in JSON, the name the
 *     operator API has always answered with
 */
public record ReconciliationReport(
    int examined, @JsonbProperty("outcomes") Map<Finding, Integer> findings) {

  /** What became of one key. */
  public enum Finding {
    /** The gateway had charged: payment captured, key completed with the 201. */
    CAPTURED,
    /** The gateway had declined: key completed with the 402. */
    DECLINED,
    /** The gateway had no charge (or nothing was ever sent): the client's next retry runs anew. */
    RELEASED,
    /** The gateway could not be asked; tried again next run. */
    GATEWAY_UNREACHABLE,
    /** Its lease has not run out: a request may still be working on it; left alone. */
    STILL_RUNNING,
    /**
     * Older than the gateway's key retention and not found there: the gateway may have forgotten a
     * charge, so only an operator may decide; left in processing.
     */
    NEEDS_OPERATOR,
    /** Another worker or node settled it first (fenced). */
    SETTLED_ELSEWHERE,
    /** Unexpected failure; logged, tried again next run. */
    FAILED,
    /**
     * Only for one key examined on an operator's request: the key is not a payments.charge key in
     * processing (unknown, completed or released), so there is nothing to reconcile; nothing
     * changed. A run never meets it (it only takes keys in processing) and does not list it.
     */
    NOT_PROCESSING
  }

  /** The report of a run that found {@code results}, one per key examined. */
  public static ReconciliationReport of(Iterable<Finding> results) {
    Map<Finding, Integer> counts = new EnumMap<>(Finding.class);
    for (Finding finding : Finding.values()) {
      if (finding != Finding.NOT_PROCESSING) {
        counts.put(finding, 0);
      }
    }
    int examined = 0;
    for (Finding finding : results) {
      counts.merge(finding, 1, Integer::sum);
      examined++;
    }
    return new ReconciliationReport(examined, counts);
  }

  /**
   * As the run's INFO line has always shown it ("reconciled payments.charge keys: ..."), the counts
   * under their published name {@code outcomes}, as in JSON.
   */
  @Override
  public String toString() {
    return "ReconciliationReport[examined=" + examined + ", outcomes=" + findings + "]";
  }
}
