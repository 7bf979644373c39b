package com.banhang.shop.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The backoff arithmetic, on its own: bounds, full jitter, Retry-After as a floor. */
class RetryPolicyTest {

  private static RetryPolicy policy(Duration first, Duration max, Random random) {
    return new RetryPolicy(
        first, max, Duration.ofSeconds(30), Duration.ofSeconds(5), random, new FakeClock());
  }

  @Test
  void theBoundDoublesFromTheFirstDelayAndStopsAtTheMaxDelay() {
    RetryPolicy policy = policy(Duration.ofMillis(100), Duration.ofSeconds(1), new Random(1));

    assertThat(IntStream.rangeClosed(1, 7).mapToObj(policy::backoffBound))
        .containsExactly(
            Duration.ofMillis(100),
            Duration.ofMillis(200),
            Duration.ofMillis(400),
            Duration.ofMillis(800),
            Duration.ofSeconds(1),
            Duration.ofSeconds(1),
            Duration.ofSeconds(1));
  }

  @Test
  void theBoundOfAVeryLongRunIsTheMaxDelayNotAnOverflow() {
    RetryPolicy policy = policy(Duration.ofNanos(1), Duration.ofDays(1), new Random(1));

    assertThat(policy.backoffBound(Integer.MAX_VALUE)).isEqualTo(Duration.ofDays(1));
    assertThatThrownBy(() -> policy.backoffBound(0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void everyDelayIsInsideZeroAndTheBound() {
    // Many policies and retry numbers, drawn from a fixed Random so a failure repeats.
    Random cases = new Random(20_261_202L);
    for (int i = 0; i < 500; i++) {
      Duration first = Duration.ofMillis(1 + cases.nextInt(1_000));
      Duration max = first.multipliedBy(1 + cases.nextInt(64));
      int retry = 1 + cases.nextInt(20);
      RetryPolicy policy = policy(first, max, new Random(cases.nextLong()));
      Duration bound = policy.backoffBound(retry);
      for (int draw = 0; draw < 50; draw++) {
        assertThat(policy.delayBeforeRetry(retry, Duration.ZERO))
            .as("policy %s, retry %d", policy, retry)
            .isBetween(Duration.ZERO, bound);
      }
    }
  }

  @Test
  void theJitterIsFullSpreadOverTheWholeRangeNotHalfOfIt() {
    // Full jitter draws from [0, bound]; "equal jitter" would never go under bound / 2, and no
    // jitter would always be the bound. The draws must reach both ends and average the middle.
    RetryPolicy policy = policy(Duration.ofSeconds(1), Duration.ofSeconds(1), new Random(7));
    List<Long> millis =
        IntStream.range(0, 10_000)
            .mapToObj(i -> policy.delayBeforeRetry(1, Duration.ZERO).toMillis())
            .toList();

    assertThat(millis.stream().mapToLong(Long::longValue).min().orElseThrow()).isLessThan(20);
    assertThat(millis.stream().mapToLong(Long::longValue).max().orElseThrow()).isGreaterThan(980);
    assertThat(millis.stream().mapToLong(Long::longValue).average().orElseThrow())
        .isBetween(450.0, 550.0);
  }

  @Test
  void retryAfterIsAFloorAndOnlyAFloor() {
    Random cases = new Random(42);
    for (int i = 0; i < 2_000; i++) {
      RetryPolicy policy =
          policy(Duration.ofMillis(100), Duration.ofSeconds(2), new Random(cases.nextLong()));
      int retry = 1 + cases.nextInt(10);
      Duration retryAfter = Duration.ofMillis(cases.nextInt(6_000));
      Duration bound = policy.backoffBound(retry);

      Duration delay = policy.delayBeforeRetry(retry, retryAfter);

      assertThat(delay).isGreaterThanOrEqualTo(retryAfter);
      assertThat(delay).isLessThanOrEqualTo(bound.compareTo(retryAfter) > 0 ? bound : retryAfter);
    }
  }

  @Test
  void theSameRandomGivesTheSameDelays() {
    RetryPolicy one = policy(Duration.ofMillis(10), Duration.ofSeconds(1), new Random(99));
    RetryPolicy two = policy(Duration.ofMillis(10), Duration.ofSeconds(1), new Random(99));

    List<Duration> first =
        IntStream.rangeClosed(1, 20).mapToObj(n -> one.delayBeforeRetry(n, Duration.ZERO)).toList();
    List<Duration> second =
        IntStream.rangeClosed(1, 20).mapToObj(n -> two.delayBeforeRetry(n, Duration.ZERO)).toList();

    assertThat(first).isEqualTo(second).doesNotHaveDuplicates();
  }

  @Test
  void refusesAPolicyThatCannotWork() {
    RetryPolicy defaults = RetryPolicy.defaults();

    assertThatThrownBy(() -> defaults.withMaxDelay(Duration.ofMillis(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxDelay");
    assertThatThrownBy(() -> defaults.withDeadline(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("deadline");
    assertThatThrownBy(() -> defaults.withPerTryTimeout(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("perTryTimeout");
    assertThatThrownBy(() -> defaults.withRandom(null)).isInstanceOf(NullPointerException.class);
  }
}
