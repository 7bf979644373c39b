package com.banhang.shop.client;

import java.time.Duration;
import java.time.Instant;

/**
 * Where the retry loop reads the time and how it waits. The system one is right for every real use;
 * tests pass one that records each wait and moves its own time forward instead of sleeping, so a
 * minute of backoff takes no time and every wait can be asserted.
 */
public interface RetryClock {

  /** A monotonic reading in nanoseconds, for the deadline (a wall clock may jump). */
  long nanoTime();

  /** The wall-clock time, to read a {@code Retry-After} given as an HTTP-date. */
  Instant now();

  /** Waits {@code delay}; an interrupt ends the wait and the retries. */
  void sleep(Duration delay) throws InterruptedException;

  /** {@link System#nanoTime()}, {@link Instant#now()} and {@link Thread#sleep(long, int)}. */
  static RetryClock system() {
    return SystemRetryClock.INSTANCE;
  }
}
