package com.banhang.shop.client;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A clock whose time moves only when the retry loop sleeps: every wait is recorded instead of
 * taken, so a test of a 30 s deadline runs in milliseconds and can assert each wait.
 */
final class FakeClock implements RetryClock {

  static final Instant START = Instant.parse("2026-12-02T08:00:00Z");

  private long elapsedNanos;
  private final List<Duration> sleeps = new ArrayList<>();

  @Override
  public synchronized long nanoTime() {
    return elapsedNanos;
  }

  @Override
  public synchronized Instant now() {
    return START.plusNanos(elapsedNanos);
  }

  @Override
  public synchronized void sleep(Duration delay) {
    sleeps.add(delay);
    elapsedNanos += delay.toNanos();
  }

  synchronized void advance(Duration duration) {
    elapsedNanos += duration.toNanos();
  }

  synchronized List<Duration> sleeps() {
    return List.copyOf(sleeps);
  }

  synchronized Duration slept() {
    return sleeps.stream().reduce(Duration.ZERO, Duration::plus);
  }
}
