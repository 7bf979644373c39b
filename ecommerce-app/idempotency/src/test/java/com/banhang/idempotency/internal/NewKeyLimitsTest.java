package com.banhang.idempotency.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The rate limit of new keys: parsing, precedence, the buckets in memory, and how they front the
 * shared bucket (SharedNewKeyLimitsContract runs the shared bucket itself on each database).
 */
class NewKeyLimitsTest {

  private final Map<String, String> config = new HashMap<>();
  private final NewKeyLimits limits =
      new NewKeyLimits(name -> Optional.ofNullable(config.get(name)));

  @Test
  void parse_tokensPerDuration_orUnlimited() {
    assertThat(NewKeyLimits.Limit.parse("2000/PT10M"))
        .isEqualTo(new NewKeyLimits.Limit(2000, Duration.ofMinutes(10)));
    assertThat(NewKeyLimits.Limit.parse(" 5 / PT1M ").tokens()).isEqualTo(5);
    assertThat(NewKeyLimits.Limit.parse("unlimited").unlimited()).isTrue();
    for (String bad :
        new String[] {"", "5", "0/PT1M", "5/PT0S", "5/-PT1M", "5/1m", "-1/PT1M", "x/PT1M"}) {
      assertThatThrownBy(() -> NewKeyLimits.Limit.parse(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void default_isAGenerousBurstRefilledAt200AMinute() {
    NewKeyLimits.Limit limit = limits.limit("alice", "orders.create");

    assertThat(limit.tokens()).isEqualTo(2000);
    assertThat(limit.period()).isEqualTo(Duration.ofMinutes(10));
  }

  @Test
  void tenantOverride_beatsOperation_beatsGlobal_andAnInvalidValueIsSkipped() {
    config.put("idempotency.new-keys.limit", "100/PT1M");
    config.put("idempotency.operations.orders.create.new-keys", "50/PT1M");
    config.put("idempotency.new-keys.tenant.carol", "5/PT1M");
    config.put("idempotency.new-keys.tenant.dave", "not a limit");

    assertThat(limits.limit("carol", "orders.create").tokens()).isEqualTo(5);
    assertThat(limits.limit("alice", "orders.create").tokens()).isEqualTo(50);
    assertThat(limits.limit("alice", "payments.charge").tokens()).isEqualTo(100);
    assertThat(limits.limit("dave", "payments.charge").tokens()).isEqualTo(100);
    config.put("idempotency.new-keys.limit", "nonsense");
    assertThat(limits.limit("dave", "payments.charge").tokens()).isEqualTo(2000);
  }

  @Test
  void bucket_perTenantAndOperation_refusesOverTheLimit_withTheWaitUntilTheNextToken() {
    config.put("idempotency.new-keys.tenant.carol", "3/PT1M");
    for (int i = 0; i < 3; i++) {
      assertThat(limits.tryAcquire("carol", "orders.create").allowed()).isTrue();
    }
    NewKeyLimits.Decision refused = limits.tryAcquire("carol", "orders.create");

    assertThat(refused.allowed()).isFalse();
    assertThat(refused.retryAfter()).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(20));
    assertThat(limits.tryAcquire("carol", "payments.charge").allowed()).isTrue();
    assertThat(limits.tryAcquire("alice", "orders.create").allowed()).isTrue();

    limits.giveBack("carol", "orders.create");
    assertThat(limits.tryAcquire("carol", "orders.create").allowed()).isTrue();
    assertThat(limits.tryAcquire("carol", "orders.create").allowed()).isFalse();
  }

  @Test
  void unlimited_neverRefuses() {
    config.put("idempotency.new-keys.limit", "unlimited");
    for (int i = 0; i < 10_000; i++) {
      assertThat(limits.tryAcquire("alice", "orders.create").allowed()).isTrue();
    }
  }

  /** A shared bucket in memory that counts its calls, or fails when {@code down}. */
  private static final class CountingShared implements NewKeyLimits.SharedBuckets {
    final AtomicInteger takes = new AtomicInteger();
    final AtomicInteger givenBack = new AtomicInteger();
    volatile long left;
    volatile boolean down;

    CountingShared(long left) {
      this.left = left;
    }

    @Override
    public synchronized Optional<Duration> tryTake(String name, long tokens, Duration period) {
      takes.incrementAndGet();
      if (down) {
        throw new IllegalStateException("database down");
      }
      if (left == 0) {
        return Optional.of(Duration.ofSeconds(7));
      }
      left--;
      return Optional.empty();
    }

    @Override
    public synchronized void giveBack(String name, long tokens, Duration period) {
      givenBack.incrementAndGet();
      left++;
    }

    /** Buckets full again, for {@link #removeFull}. */
    volatile int full;

    @Override
    public synchronized int removeFull(int batchSize) {
      if (down) {
        throw new IllegalStateException("database down");
      }
      int removed = Math.min(full, batchSize);
      full -= removed;
      return removed;
    }
  }

  @Test
  void removingFullSharedBuckets_goesBatchByBatch_untilAShortOne_orTheMostBatches() {
    CountingShared shared = new CountingShared(1);
    NewKeyLimits node =
        new NewKeyLimits(name -> Optional.ofNullable(config.get(name)), () -> shared);
    shared.full = 25;

    assertThat(node.removeFullSharedBuckets(10, 2)).isEqualTo(20);
    assertThat(node.removeFullSharedBuckets(10, 5)).isEqualTo(5);
    assertThat(node.removeFullSharedBuckets(10, 5)).isZero();

    shared.down = true;
    assertThatThrownBy(() -> node.removeFullSharedBuckets(10, 5))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void shared_decidesWhatTheLocalBucketAllows_andTheLocalBucketRefusesWithoutAsking() {
    config.put("idempotency.new-keys.tenant.carol", "3/PT1H");
    CountingShared shared = new CountingShared(1); // the other servers took two of the three
    NewKeyLimits node =
        new NewKeyLimits(name -> Optional.ofNullable(config.get(name)), () -> shared);

    assertThat(node.tryAcquire("carol", "orders.create").allowed()).isTrue();
    NewKeyLimits.Decision refused = node.tryAcquire("carol", "orders.create");
    assertThat(refused.allowed()).isFalse();
    assertThat(refused.retryAfter()).isEqualTo(Duration.ofSeconds(7));
    assertThat(node.tryAcquire("carol", "orders.create").allowed()).isFalse();
    assertThat(shared.takes).hasValue(3);

    // The local bucket is empty now: a tenant far over its limit costs the database nothing.
    for (int i = 0; i < 100; i++) {
      assertThat(node.tryAcquire("carol", "orders.create").allowed()).isFalse();
    }
    assertThat(shared.takes).hasValue(3);
  }

  @Test
  void givingBack_returnsTheTokenToBothBuckets() {
    config.put("idempotency.new-keys.tenant.carol", "3/PT1H");
    CountingShared shared = new CountingShared(3);
    NewKeyLimits node =
        new NewKeyLimits(name -> Optional.ofNullable(config.get(name)), () -> shared);

    assertThat(node.tryAcquire("carol", "orders.create").allowed()).isTrue();
    node.giveBack("carol", "orders.create");

    assertThat(shared.givenBack).hasValue(1);
    assertThat(shared.left).isEqualTo(3);
  }

  @Test
  void sharedBucketDown_failsOpenOntoTheLocalBucket() {
    config.put("idempotency.new-keys.tenant.carol", "3/PT1H");
    CountingShared shared = new CountingShared(100);
    shared.down = true;
    NewKeyLimits node =
        new NewKeyLimits(name -> Optional.ofNullable(config.get(name)), () -> shared);

    for (int i = 0; i < 3; i++) {
      assertThat(node.tryAcquire("carol", "orders.create").allowed()).isTrue();
    }
    assertThat(node.tryAcquire("carol", "orders.create").allowed()).isFalse();
    assertThat(shared.takes).hasValue(3);
  }

  @Test
  void noSharedBuckets_theLocalBucketDecides_andTheyAreTriedAgainOnlyLater() {
    config.put("idempotency.new-keys.tenant.carol", "3/PT1H");
    AtomicInteger made = new AtomicInteger();
    NewKeyLimits node =
        new NewKeyLimits(
            name -> Optional.ofNullable(config.get(name)),
            () -> {
              made.incrementAndGet();
              throw new IllegalStateException("no data source jdbc/idempotency-limits");
            });

    for (int i = 0; i < 3; i++) {
      assertThat(node.tryAcquire("carol", "orders.create").allowed()).isTrue();
    }
    assertThat(node.tryAcquire("carol", "orders.create").allowed()).isFalse();
    assertThat(made).as("not once per new key: once per " + NewKeyLimits.SHARED_RETRY).hasValue(1);
  }
}
