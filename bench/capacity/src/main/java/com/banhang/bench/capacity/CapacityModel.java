package com.banhang.bench.capacity;

import java.time.Duration;

/**
 * The arithmetic of the capacity model in docs/scaling.md ("Capacity model"): from measured bytes
 * and writes per keyed request to what a day costs and what one primary holds. No measurement here;
 * {@link CapacityBench} feeds it the figures it measured and the assumptions it was given.
 */
public final class CapacityModel {

  private CapacityModel() {}

  static final double SECONDS_PER_DAY = 86_400;

  /** Rows a table holds in steady state: every row lives for {@code retention}, then is purged. */
  public static long rowsHeld(double newKeysPerSecond, Duration retention) {
    return Math.round(newKeysPerSecond * retention.toSeconds());
  }

  /** Bytes written per day at {@code perSecond} requests of {@code bytesPerRequest} each. */
  public static double bytesPerDay(double perSecond, double bytesPerRequest) {
    return perSecond * SECONDS_PER_DAY * bytesPerRequest;
  }

  /** Bytes a table holds in steady state: {@link #rowsHeld} times the bytes of one row. */
  public static double bytesHeld(double newKeysPerSecond, Duration retention, double bytesPerRow) {
    return rowsHeld(newKeysPerSecond, retention) * bytesPerRow;
  }

  /**
   * The new keys per second whose rows fill {@code fillShare} of {@code diskBytes} when each lives
   * for {@code retention}.
   */
  public static double rateForDisk(
      double diskBytes, double fillShare, double bytesPerRow, Duration retention) {
    return diskBytes * fillShare / (bytesPerRow * retention.toSeconds());
  }

  /** Requests per second a budget of {@code perSecondBudget} units allows at {@code perRequest}. */
  public static double rateFor(double perSecondBudget, double perRequest) {
    if (perRequest <= 0) {
      return Double.POSITIVE_INFINITY;
    }
    return perSecondBudget / perRequest;
  }

  /**
   * Primaries needed for {@code neededRate} when one holds {@code onePrimaryRate} and is run at no
   * more than {@code headroom} (0 to 1) of it: at least 1.
   */
  public static int primaries(double neededRate, double onePrimaryRate, double headroom) {
    if (headroom <= 0 || headroom > 1) {
      throw new IllegalArgumentException("headroom must be in (0, 1]: " + headroom);
    }
    return (int) Math.max(1, Math.ceil(neededRate / (onePrimaryRate * headroom)));
  }

  /**
   * The share of {@code changes}, spread at random over {@code pages} pages between two
   * checkpoints, that are the first change of their page since the checkpoint: with
   * full_page_writes on, each such change logs its page whole. {@code pages * (1 - e^(-changes /
   * pages)) / changes}: near 1 while the changes are few beside the pages (a random key into a
   * large primary key), {@code pages / changes} when they are many.
   */
  public static double firstTouchShare(double changes, double pages) {
    if (changes <= 0 || pages <= 0) {
      return 0;
    }
    return pages * -Math.expm1(-changes / pages) / changes;
  }

  /** Decimal gigabytes, as disks are sold. */
  public static double gb(double bytes) {
    return bytes / 1e9;
  }
}
