package com.banhang.shop.client;

import java.time.Duration;
import java.util.Objects;
import java.util.Random;
import java.util.random.RandomGenerator;

/**
 * How long and how often one intent is tried: exponential backoff with full jitter, at least what
 * the shop's {@code Retry-After} asks, inside one deadline for the whole intent.
 *
 * <p>Before retry {@code n} (1 for the first retry) the client waits a uniformly random time in
 * {@code [0, min(maxDelay, firstDelay * 2^(n-1))]} ("full jitter"): clients that failed together
 * spread out instead of coming back together, which matters most when the shop answered 503 because
 * it was overloaded. If the answer carried {@code Retry-After}, the wait is at least that. A wait
 * that would end at or past the deadline is not taken: the intent ends as {@link
 * Result.OutcomeUnknown}, still pending, to be resumed later with the same key. Each try is given
 * at most {@code perTryTimeout}, and never more than what is left of the deadline.
 *
 * @param firstDelay the jitter bound before the first retry
 * @param maxDelay the largest jitter bound; {@code Retry-After} may still ask for more
 * @param deadline the time from the first try after which no try starts and no wait ends
 * @param perTryTimeout how long one try waits for an answer before it counts as a timeout
 * @param random the source of the jitter; pass a {@link Random} built with a constant to repeat a
 *     run
 * @param clock the time and the waits; {@link RetryClock#system()} except in tests
 */
public record RetryPolicy(
    Duration firstDelay,
    Duration maxDelay,
    Duration deadline,
    Duration perTryTimeout,
    RandomGenerator random,
    RetryClock clock) {

  /**
   * 100 ms first bound, 5 s largest bound, 30 s deadline, 10 s per try. Ten seconds is above the
   * time the shop gives a payment's gateway call, so a slow but successful payment is not cut off
   * and sent again; thirty seconds covers the shop's default {@code Retry-After} of 1 s (409) and 5
   * s (503) several times over.
   */
  public static RetryPolicy defaults() {
    return new RetryPolicy(
        Duration.ofMillis(100),
        Duration.ofSeconds(5),
        Duration.ofSeconds(30),
        Duration.ofSeconds(10),
        new Random(),
        RetryClock.system());
  }

  public RetryPolicy {
    Objects.requireNonNull(firstDelay, "firstDelay");
    Objects.requireNonNull(maxDelay, "maxDelay");
    Objects.requireNonNull(deadline, "deadline");
    Objects.requireNonNull(perTryTimeout, "perTryTimeout");
    Objects.requireNonNull(random, "random");
    Objects.requireNonNull(clock, "clock");
    requirePositive(firstDelay, "firstDelay");
    requirePositive(deadline, "deadline");
    requirePositive(perTryTimeout, "perTryTimeout");
    if (maxDelay.compareTo(firstDelay) < 0) {
      throw new IllegalArgumentException(
          "maxDelay (" + maxDelay + ") is shorter than firstDelay (" + firstDelay + ")");
    }
  }

  public RetryPolicy withFirstDelay(Duration firstDelay) {
    return new RetryPolicy(firstDelay, maxDelay, deadline, perTryTimeout, random, clock);
  }

  public RetryPolicy withMaxDelay(Duration maxDelay) {
    return new RetryPolicy(firstDelay, maxDelay, deadline, perTryTimeout, random, clock);
  }

  public RetryPolicy withDeadline(Duration deadline) {
    return new RetryPolicy(firstDelay, maxDelay, deadline, perTryTimeout, random, clock);
  }

  public RetryPolicy withPerTryTimeout(Duration perTryTimeout) {
    return new RetryPolicy(firstDelay, maxDelay, deadline, perTryTimeout, random, clock);
  }

  public RetryPolicy withRandom(RandomGenerator random) {
    return new RetryPolicy(firstDelay, maxDelay, deadline, perTryTimeout, random, clock);
  }

  public RetryPolicy withClock(RetryClock clock) {
    return new RetryPolicy(firstDelay, maxDelay, deadline, perTryTimeout, random, clock);
  }

  /**
   * The jitter bound before retry {@code retry} (1 for the first): {@code firstDelay} doubled
   * {@code retry - 1} times, capped at {@code maxDelay}. Doubles by comparison, not by
   * multiplication, so a long run of retries never overflows.
   */
  Duration backoffBound(int retry) {
    if (retry < 1) {
      throw new IllegalArgumentException("retries count from 1, got " + retry);
    }
    Duration bound = firstDelay;
    for (int i = 1; i < retry && bound.compareTo(maxDelay) < 0; i++) {
      bound = bound.multipliedBy(2);
    }
    return bound.compareTo(maxDelay) > 0 ? maxDelay : bound;
  }

  /**
   * The wait before retry {@code retry}: a uniform draw in {@code [0, backoffBound(retry)]}, or
   * {@code retryAfter} if that is longer. The shop's {@code Retry-After} is its own estimate of
   * when another try can succeed (a lease, a circuit breaker's delay), so coming back sooner only
   * earns the same answer again.
   */
  Duration delayBeforeRetry(int retry, Duration retryAfter) {
    long boundNanos = backoffBound(retry).toNanos();
    Duration jittered = Duration.ofNanos(random.nextLong(boundNanos + 1));
    return jittered.compareTo(retryAfter) >= 0 ? jittered : retryAfter;
  }

  private static void requirePositive(Duration duration, String name) {
    if (duration.isNegative() || duration.isZero()) {
      throw new IllegalArgumentException(name + " must be positive, got " + duration);
    }
  }
}
