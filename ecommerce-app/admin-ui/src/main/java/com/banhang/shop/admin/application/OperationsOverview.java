package com.banhang.shop.admin.application;

import com.banhang.idempotency.IdempotencyKeys;
import com.banhang.idempotency.KeyStatistics;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/** The Overview's figures, taken now: this node's last hour, and the database's rows. */
@ApplicationScoped
public class OperationsOverview {

  /** The operations shown even before their first request. */
  static final List<String> KNOWN_OPERATIONS = List.of("orders.create", "payments.charge");

  @Inject IdempotencyKeys keys;
  @Inject OperationsTimeline timeline;
  @Inject LateCharges lateCharges;

  public OverviewSnapshot snapshot() {
    Map<Instant, Map<String, Long>> lastHour = timeline.lastHour();
    KeyStatistics statistics = keys.statistics();

    TreeSet<String> operations = new TreeSet<>(KNOWN_OPERATIONS);
    operations.addAll(statistics.operations());
    Map<String, Map<String, Long>> perOperation = new TreeMap<>();
    Map<String, Long> reconciliation = new TreeMap<>();
    long gatewayErrors = 0;
    List<OverviewSnapshot.MinutePoint> perMinute = new ArrayList<>();
    for (Map.Entry<Instant, Map<String, Long>> minute : lastHour.entrySet()) {
      Map<String, Long> minuteTotals = new LinkedHashMap<>();
      for (String series : seriesNames()) {
        minuteTotals.put(series, 0L);
      }
      for (Map.Entry<String, Long> count : minute.getValue().entrySet()) {
        String[] parts = count.getKey().split("\\|", 2);
        String source = parts[0];
        String series = parts[1];
        if (source.equals("reconciliation")) {
          reconciliation.merge(series, count.getValue(), Long::sum);
        } else if (source.equals("gateway")) {
          gatewayErrors += count.getValue();
          minuteTotals.merge(OperationsTimeline.GATEWAY_ERRORS, count.getValue(), Long::sum);
        } else {
          operations.add(source);
          perOperation
              .computeIfAbsent(source, o -> new TreeMap<>())
              .merge(series, count.getValue(), Long::sum);
          minuteTotals.merge(series, count.getValue(), Long::sum);
        }
      }
      perMinute.add(new OverviewSnapshot.MinutePoint(minute.getKey(), minuteTotals));
    }

    List<OverviewSnapshot.OperationCounts> counts = new ArrayList<>();
    Map<String, Map<String, Long>> processingByAge = new TreeMap<>();
    Map<String, Instant> oldest = new TreeMap<>();
    Map<String, Long> expired = new TreeMap<>();
    for (String operation : operations) {
      Map<String, Long> c = perOperation.getOrDefault(operation, Map.of());
      counts.add(
          new OverviewSnapshot.OperationCounts(
              operation,
              c.getOrDefault(OperationsTimeline.NEW, 0L),
              c.getOrDefault(OperationsTimeline.REPLAYED, 0L),
              c.getOrDefault(OperationsTimeline.IN_PROGRESS, 0L),
              c.getOrDefault(OperationsTimeline.MISMATCH, 0L),
              c.getOrDefault(OperationsTimeline.REJECTED, 0L),
              c.getOrDefault(OperationsTimeline.UNKNOWN_OUTCOME, 0L)));
      Map<String, Long> byAge = new LinkedHashMap<>();
      statistics.processingByAge(operation).forEach((b, n) -> byAge.put(b.label(), n));
      processingByAge.put(operation, byAge);
      Instant oldestProcessing = statistics.oldestProcessing(operation);
      if (oldestProcessing != null) {
        oldest.put(operation, oldestProcessing);
      }
      expired.put(operation, statistics.expiredLeases().getOrDefault(operation, 0L));
    }
    return new OverviewSnapshot(
        statistics.takenAt(),
        counts,
        processingByAge,
        oldest,
        expired,
        reconciliation,
        gatewayErrors,
        perMinute,
        lateCharges.countNeedingOperator());
  }

  /** Every series of the per-minute chart, in the order of its legend. */
  public static List<String> seriesNames() {
    return List.of(
        OperationsTimeline.NEW,
        OperationsTimeline.REPLAYED,
        OperationsTimeline.IN_PROGRESS,
        OperationsTimeline.MISMATCH,
        OperationsTimeline.REJECTED,
        OperationsTimeline.UNKNOWN_OUTCOME,
        OperationsTimeline.GATEWAY_ERRORS);
  }
}
