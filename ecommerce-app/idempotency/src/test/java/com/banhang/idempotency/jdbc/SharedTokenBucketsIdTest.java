package com.banhang.idempotency.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The id of a shared bucket's row: readable when it fits the column, else a hash. */
class SharedTokenBucketsIdTest {

  @Test
  void id_isTheNameAndTheLimit_orTheirHashWhenLongerThanTheColumn() {
    assertThat(SharedTokenBuckets.id("5:carol\norders.create", 3, Duration.ofHours(1)))
        .isEqualTo("5:carol\norders.create\n3/PT1H");
    assertThat(SharedTokenBuckets.id("a", 3, Duration.ofHours(1)))
        .isNotEqualTo(SharedTokenBuckets.id("a", 4, Duration.ofHours(1)));

    String longName = "t".repeat(600);
    String hashed = SharedTokenBuckets.id(longName, 3, Duration.ofHours(1));
    assertThat(hashed).startsWith("sha256:").hasSize(7 + 64);
    assertThat(hashed).isNotEqualTo(SharedTokenBuckets.id(longName + "x", 3, Duration.ofHours(1)));
  }
}
