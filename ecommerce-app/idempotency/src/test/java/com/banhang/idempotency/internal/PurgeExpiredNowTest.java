package com.banhang.idempotency.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.banhang.idempotency.PartitionRetention;
import com.banhang.idempotency.PurgeRun;
import com.banhang.idempotency.spi.IdempotencyStoreAdministration;
import com.banhang.idempotency.spi.InMemoryIdempotencyStore;
import jakarta.enterprise.event.Event;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The retention run's rules over the in-memory store (the partition step and the batches themselves
 * are proven on PostgreSQL by PostgresPartitionedRetentionTest): whole expired days first, then the
 * batches; the run records both, and a failed partition step leaves the run to its batches.
 */
class PurgeExpiredNowTest {

  private final InMemoryIdempotencyStore memory = new InMemoryIdempotencyStore();
  private final AtomicInteger batches = new AtomicInteger();
  private final List<PurgeRun> fired = new ArrayList<>();

  @Test
  void partitionedTable_daysDroppedThenBatches_theRunCountsBothAndSaysHow() {
    DefaultIdempotencyKeys keys =
        over(() -> new PartitionRetention(true, 2, 1, 1_000_000, 3, List.of()), 400);

    PurgeRun run = keys.purgeExpiredNow("schedule");

    assertThat(run.method()).isEqualTo(PurgeRun.PARTITIONS);
    assertThat(run.partitionsDropped()).isEqualTo(1);
    assertThat(run.rowsDeleted()).isEqualTo(1_000_400);
    assertThat(batches.get()).isEqualTo(1);
    assertThat(memory.recentPurgeRuns(1)).containsExactly(run);
    assertThat(fired).containsExactly(run);
  }

  @Test
  void tableNotPartitioned_batchesOnly() {
    DefaultIdempotencyKeys keys = over(() -> PartitionRetention.NOT_PARTITIONED, 7);

    PurgeRun run = keys.purgeExpiredNow("operator");

    assertThat(run.method()).isEqualTo(PurgeRun.BATCHED);
    assertThat(run.partitionsDropped()).isZero();
    assertThat(run.rowsDeleted()).isEqualTo(7);
  }

  @Test
  void partitionStepFails_theBatchesStillRun_andTheRunIsRecorded() {
    DefaultIdempotencyKeys keys =
        over(
            () -> {
              throw new IllegalStateException("lock not available");
            },
            12);

    PurgeRun run = keys.purgeExpiredNow("schedule");

    assertThat(run.method()).isEqualTo(PurgeRun.BATCHED);
    assertThat(run.rowsDeleted()).isEqualTo(12);
    assertThat(memory.recentPurgeRuns(1)).containsExactly(run);
  }

  @Test
  void theRunAlsoRemovesFullSharedBuckets_andTheirFailureDoesNotFailIt() {
    DefaultIdempotencyKeys keys = over(() -> PartitionRetention.NOT_PARTITIONED, 7);
    AtomicInteger full = new AtomicInteger(2_500);
    AtomicInteger bucketBatches = new AtomicInteger();
    AtomicBoolean down = new AtomicBoolean();
    keys.settings.newKeyLimits =
        new NewKeyLimits(
            name -> Optional.empty(),
            () ->
                new NewKeyLimits.SharedBuckets() {
                  @Override
                  public Optional<Duration> tryTake(String name, long tokens, Duration period) {
                    return Optional.empty();
                  }

                  @Override
                  public void giveBack(String name, long tokens, Duration period) {}

                  @Override
                  public int removeFull(int batchSize) {
                    if (down.get()) {
                      throw new IllegalStateException("database down");
                    }
                    bucketBatches.incrementAndGet();
                    int removed = Math.min(full.get(), batchSize);
                    full.addAndGet(-removed);
                    return removed;
                  }
                });

    PurgeRun run = keys.purgeExpiredNow("schedule");

    assertThat(full).hasValue(0); // the run's batch size (1000) three times, the last one short
    assertThat(bucketBatches).hasValue(3);
    assertThat(run.rowsDeleted()).isEqualTo(7); // buckets are not keys

    full.set(5);
    down.set(true);
    PurgeRun failed = keys.purgeExpiredNow("schedule");
    assertThat(failed.rowsDeleted()).isEqualTo(7);
    assertThat(memory.recentPurgeRuns(1)).containsExactly(failed);
    assertThat(full).hasValue(5);
  }

  /** Keys over the in-memory store, the partition step and one short batch as given. */
  @SuppressWarnings("unchecked")
  private DefaultIdempotencyKeys over(Supplier<PartitionRetention> step, int batchRows) {
    IdempotencyStoreAdministration administration =
        (IdempotencyStoreAdministration)
            Proxy.newProxyInstance(
                getClass().getClassLoader(),
                new Class<?>[] {IdempotencyStoreAdministration.class},
                (proxy, method, args) -> {
                  if (method.getName().equals("retainByPartitions")) {
                    return step.get();
                  }
                  if (method.getName().equals("purgeExpired")) {
                    batches.incrementAndGet();
                    return batchRows;
                  }
                  try {
                    return method.invoke(memory, args);
                  } catch (InvocationTargetException e) {
                    throw e.getCause();
                  }
                });
    DefaultIdempotencyKeys keys =
        (DefaultIdempotencyKeys) RecordsOver.store(memory, administration);
    IdempotencySettings settings = new IdempotencySettings();
    settings.purgeBatchSize = 1000;
    settings.purgeMaxBatches = 10;
    settings.purgeBatchPause = Duration.ZERO;
    settings.partitionDaysAhead = 8;
    settings.partitionLockWait = Duration.ofMillis(500);
    keys.settings = settings;
    keys.purgeRuns =
        (Event<PurgeRun>)
            Proxy.newProxyInstance(
                getClass().getClassLoader(),
                new Class<?>[] {Event.class},
                (proxy, method, args) -> {
                  if (method.getName().equals("fire")) {
                    fired.add((PurgeRun) args[0]);
                  }
                  return null;
                });
    return keys;
  }
}
