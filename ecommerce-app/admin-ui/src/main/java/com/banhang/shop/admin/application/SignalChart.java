package com.banhang.shop.admin.application;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * One chart of the Overview: a signal's series over the chosen range, one value per bucket.
 *
 * @param buckets the start of each bucket, oldest first (UTC)
 * @param bucket the minutes a point stands for: counts are summed over them, gauges the largest
 *     reading among them
 * @param series by name (operation, call or finding), each with one value per bucket; a gauge's
 *     value is null where no node sampled the table (a gap, not a zero)
 */
public record SignalChart(
    ConsoleSignal signal, Duration bucket, List<Instant> buckets, List<Series> series) {

  /** One line of the chart. */
  public record Series(String name, List<Long> values) {}
}
