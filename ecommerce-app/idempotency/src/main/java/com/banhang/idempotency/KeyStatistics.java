package com.banhang.idempotency;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Counts of the idempotency table at one instant, for operators and metrics.
 *
 * @param buckets rows per operation, status and age bucket (only non-empty buckets)
 * @param groups rows and the oldest claim per operation and status
 * @param expiredLeases per operation, processing rows whose lease has run out
 */
public record KeyStatistics(
    Instant takenAt,
    List<BucketCount> buckets,
    List<StatusGroup> groups,
    Map<String, Long> expiredLeases) {

  /** Age of a row since its claim, in the buckets an operator thinks in. */
  public enum AgeBucket {
    UNDER_1_MIN("< 1 min", Duration.ofMinutes(1)),
    UNDER_5_MIN("1-5 min", Duration.ofMinutes(5)),
    UNDER_1_HOUR("5-60 min", Duration.ofHours(1)),
    UNDER_1_DAY("1-24 h", Duration.ofDays(1)),
    OLDER("> 24 h", null);

    private final String label;
    private final Duration upperBound;

    AgeBucket(String label, Duration upperBound) {
      this.label = label;
      this.upperBound = upperBound;
    }

    public String label() {
      return label;
    }

    /** Rows younger than this fall in the bucket (null: no bound). */
    public Duration upperBound() {
      return upperBound;
    }
  }

  public record BucketCount(
      String operation, IdempotencyRecord.Status status, AgeBucket bucket, long rows) {}

  public record StatusGroup(
      String operation, IdempotencyRecord.Status status, long rows, Instant oldest) {}

  /** Processing rows of {@code operation}. */
  public long processing(String operation) {
    return groups.stream()
        .filter(
            g ->
                g.operation().equals(operation)
                    && g.status() == IdempotencyRecord.Status.PROCESSING)
        .mapToLong(StatusGroup::rows)
        .sum();
  }

  /** When the oldest processing row of {@code operation} was claimed, or null if none. */
  public Instant oldestProcessing(String operation) {
    return groups.stream()
        .filter(
            g ->
                g.operation().equals(operation)
                    && g.status() == IdempotencyRecord.Status.PROCESSING)
        .map(StatusGroup::oldest)
        .findFirst()
        .orElse(null);
  }

  /** Processing rows per age bucket of {@code operation}, every bucket present, youngest first. */
  public Map<AgeBucket, Long> processingByAge(String operation) {
    Map<AgeBucket, Long> counts = new TreeMap<>();
    for (AgeBucket bucket : AgeBucket.values()) {
      counts.put(bucket, 0L);
    }
    for (BucketCount count : buckets) {
      if (count.operation().equals(operation)
          && count.status() == IdempotencyRecord.Status.PROCESSING) {
        counts.merge(count.bucket(), count.rows(), Long::sum);
      }
    }
    return counts;
  }

  /** Every operation with at least one row. */
  public List<String> operations() {
    return groups.stream().map(StatusGroup::operation).distinct().sorted().toList();
  }
}
