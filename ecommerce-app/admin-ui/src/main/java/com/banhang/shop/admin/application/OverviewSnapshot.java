package com.banhang.shop.admin.application;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What the Overview shows. Request counts and the per-minute series come from this node since it
 * started (at most the last hour); row counts come from the database and cover every node.
 *
 * @param operations per operation: counts over the last hour
 * @param processingByAge per operation, processing rows per age bucket label
 * @param oldestProcessing per operation, when its oldest processing row was claimed
 * @param expiredLeases per operation, processing rows whose lease ran out
 * @param reconciliationFindings reconciliation finding name to count, last hour
 * @param gatewayErrors failed gateway calls, last hour
 * @param perMinute the last 60 minutes, oldest first
 * @param lateChargesNeedingOperator late charges flagged double charge or mismatch that nobody has
 *     marked handled (every node, from the database): see the Late charges view
 * @param gatewayEventsFlagged the processor's webhook events that contradict the shop's record and
 *     that nobody has marked handled (every node, from the database): see the Gateway events view
 * @param gatewayEventsParked the processor's webhook events whose processing gave up (unknown type,
 *     unreadable, failed too often): an operator may retry them in the Gateway events view
 */
public record OverviewSnapshot(
    Instant takenAt,
    List<OperationCounts> operations,
    Map<String, Map<String, Long>> processingByAge,
    Map<String, Instant> oldestProcessing,
    Map<String, Long> expiredLeases,
    Map<String, Long> reconciliationFindings,
    long gatewayErrors,
    List<MinutePoint> perMinute,
    long lateChargesNeedingOperator,
    long gatewayEventsFlagged,
    long gatewayEventsParked) {

  /** Gateway events an operator must look at: flagged and not handled, or parked. */
  public long gatewayEventsNeedingOperator() {
    return gatewayEventsFlagged + gatewayEventsParked;
  }

  /** Keyed requests of one operation over the last hour, by what the idempotency layer did. */
  public record OperationCounts(
      String operation,
      long newKeys,
      long replayed,
      long inProgress,
      long mismatch,
      long rejected,
      long unknownOutcome) {

    public long total() {
      return newKeys + replayed + inProgress + mismatch + rejected + unknownOutcome;
    }

    /** Share of {@code count} in all requests of the operation, 0 when there were none. */
    public double rate(long count) {
      return total() == 0 ? 0 : (double) count / total();
    }
  }

  /**
   * One minute: series name (e.g. {@code new}, {@code replayed}, {@code in_progress}, {@code
   * mismatch}, {@code rejected}, {@code unknown_outcome}, {@code gateway_errors}) to count, all
   * operations together.
   */
  public record MinutePoint(Instant minute, Map<String, Long> counts) {}
}
