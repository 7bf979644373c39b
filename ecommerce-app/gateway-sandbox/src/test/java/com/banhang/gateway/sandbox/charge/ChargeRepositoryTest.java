package com.banhang.gateway.sandbox.charge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

class ChargeRepositoryTest {

  private final ChargeRepository repository = H2Databases.freshRepository();

  private static Charge charge(String key, ChargeStatus status, String orderReference) {
    return new Charge(
        "ch_" + UUID.randomUUID(),
        status,
        5000,
        "VND",
        orderReference,
        "pm_card_ok",
        key,
        "hash-" + key,
        Instant.parse("2026-01-02T03:04:05.678Z"));
  }

  @Test
  void creatingTheSchemaAgainIsHarmless() {
    repository.createSchemaIfAbsent();
    repository.createSchemaIfAbsent();

    assertThat(repository.totals()).isEqualTo(new ChargeCounts(0, 0));
  }

  @RepeatedTest(5)
  void severalStartsAtOnceOnOneDatabaseAllSucceed() throws Exception {
    DataSource shared = H2Databases.fresh();
    int starts = 6;
    CountDownLatch go = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(starts);
    try {
      List<Future<?>> results = new ArrayList<>();
      for (int i = 0; i < starts; i++) {
        results.add(
            pool.submit(
                () -> {
                  go.await();
                  new ChargeRepository(shared).createSchemaIfAbsent();
                  return null;
                }));
      }
      go.countDown();
      for (Future<?> result : results) {
        result.get(30, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }

    assertThat(new ChargeRepository(shared).totals()).isEqualTo(new ChargeCounts(0, 0));
  }

  @Test
  void findsAnInsertedChargeByItsKeyWithEveryField() {
    Charge charge = charge("key-1", ChargeStatus.DECLINED, "order-1");

    assertThat(repository.insert(charge)).isTrue();

    assertThat(repository.findByKey("key-1")).contains(charge);
    assertThat(repository.findByKey("KEY-1")).as("keys are case-sensitive").isEmpty();
  }

  @Test
  void aSecondChargeWithTheSameKeyIsRefusedNotThrown() {
    assertThat(repository.insert(charge("key-2", ChargeStatus.SUCCEEDED, "order-2"))).isTrue();

    assertThat(repository.insert(charge("key-2", ChargeStatus.SUCCEEDED, "order-2"))).isFalse();
    assertThat(repository.countsFor("order-2")).isEqualTo(new ChargeCounts(1, 0));
  }

  @Test
  void aRetiredKeyFindsNothingButTheChargeStillCountsAndKeepsItsKey() {
    Charge old = charge("key-3", ChargeStatus.SUCCEEDED, "order-3");
    repository.insert(old);

    assertThat(repository.retireKey(old.id(), "key-3")).isTrue();
    assertThat(repository.retireKey(old.id(), "key-3")).as("only once").isFalse();

    assertThat(repository.findByKey("key-3")).isEmpty();
    assertThat(repository.countsFor("order-3")).isEqualTo(new ChargeCounts(1, 0));
    Charge renewed = charge("key-3", ChargeStatus.SUCCEEDED, "order-3");
    assertThat(repository.insert(renewed)).as("the key is free again").isTrue();
    assertThat(repository.findByKey("key-3")).contains(renewed);
    assertThat(repository.countsFor("order-3")).isEqualTo(new ChargeCounts(2, 0));
  }

  @Test
  void findsAChargeByItsIdAlsoAfterItsKeyWasRetired() {
    Charge old = charge("key-4", ChargeStatus.SUCCEEDED, "order-4");
    repository.insert(old);
    repository.retireKey(old.id(), "key-4");

    assertThat(repository.findById(old.id()))
        .as("the id still names the charge, with the key it was created under")
        .contains(old);
    assertThat(repository.findById(old.id().toUpperCase())).as("ids are case-sensitive").isEmpty();
    assertThat(repository.findById("ch_unknown")).isEmpty();
  }

  @Test
  void countsSucceededAndDeclinedChargesPerOrderAndInTotal() {
    repository.insert(charge("a", ChargeStatus.SUCCEEDED, "order-a"));
    repository.insert(charge("b", ChargeStatus.SUCCEEDED, "order-a"));
    repository.insert(charge("c", ChargeStatus.DECLINED, "order-a"));
    repository.insert(charge("d", ChargeStatus.SUCCEEDED, "order-b"));
    repository.insert(charge("e", ChargeStatus.DECLINED, "order-c"));

    assertThat(repository.countsFor("order-a")).isEqualTo(new ChargeCounts(2, 1));
    assertThat(repository.countsFor("order-unknown")).isEqualTo(new ChargeCounts(0, 0));
    assertThat(repository.totals()).isEqualTo(new ChargeCounts(3, 2));
    assertThat(repository.succeededByOrderReference())
        .containsExactly(entry("order-a", 2L), entry("order-b", 1L));
  }
}
