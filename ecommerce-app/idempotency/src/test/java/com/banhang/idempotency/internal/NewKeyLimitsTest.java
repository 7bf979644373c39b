package com.banhang.idempotency.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The per-node rate limit of new keys: parsing, precedence, and the buckets themselves. */
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
}
