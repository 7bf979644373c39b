package com.banhang.events.webhooks;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * When a delivery is attempted: the n-th entry is the delay before the n-th attempt, counted from
 * the hand-over for the first and from the failed attempt before for the others. After the last
 * entry's attempt fails, the delivery is parked.
 */
public final class RetrySchedule {

  /**
   * The Standard Webhooks specification's example schedule: immediately, then after 5 seconds, 5
   * minutes, 30 minutes, 2 hours, 5 hours, 10 hours and 10 hours; eight attempts over about a day
   * and a bit, long enough for a subscriber's outage to be noticed and mended.
   */
  public static final String STANDARD = "PT0S,PT5S,PT5M,PT30M,PT2H,PT5H,PT10H,PT10H";

  private final List<Duration> delays;

  private RetrySchedule(List<Duration> delays) {
    this.delays = List.copyOf(delays);
  }

  /**
   * A schedule from a comma-separated list of ISO-8601 durations.
   *
   * @throws IllegalArgumentException when the list is empty or an entry is not a duration of zero
   *     or more
   */
  public static RetrySchedule parse(String text) {
    List<Duration> delays = new ArrayList<>();
    for (String entry : text.split(",")) {
      String trimmed = entry.trim();
      if (trimmed.isEmpty()) {
        continue;
      }
      Duration delay;
      try {
        delay = Duration.parse(trimmed);
      } catch (DateTimeParseException e) {
        throw new IllegalArgumentException("not an ISO-8601 duration: " + trimmed, e);
      }
      if (delay.isNegative()) {
        throw new IllegalArgumentException("a negative delay: " + trimmed);
      }
      delays.add(delay);
    }
    if (delays.isEmpty()) {
      throw new IllegalArgumentException("no delay at all");
    }
    return new RetrySchedule(delays);
  }

  /** How many attempts a delivery gets before it is parked. */
  public int attempts() {
    return delays.size();
  }

  /** The delay before the first attempt, from the hand-over. */
  public Duration first() {
    return delays.get(0);
  }

  /**
   * The delay before the next attempt after {@code attemptsMade} failed ones, or empty when the
   * schedule is spent and the delivery is parked.
   */
  public Optional<Duration> after(int attemptsMade) {
    if (attemptsMade >= delays.size()) {
      return Optional.empty();
    }
    return Optional.of(delays.get(Math.max(1, attemptsMade)));
  }

  @Override
  public String toString() {
    return delays.toString();
  }
}
