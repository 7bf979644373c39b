package com.banhang.idempotency.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.banhang.idempotency.BodyResealBatch;
import com.banhang.idempotency.BodyResealRun;
import com.banhang.idempotency.IdempotencyStoreUnavailableException;
import com.banhang.idempotency.spi.IdempotencyStoreAdministration;
import com.banhang.idempotency.spi.InMemoryIdempotencyStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * The re-seal run's rules over the in-memory store (the batches themselves are proven on each
 * database by the JDBC store contract): when a run stops, what it records, and that a failed run is
 * recorded before it throws.
 */
class ResealBodiesNowTest {

  private final InMemoryIdempotencyStore memory = new InMemoryIdempotencyStore();
  private final AtomicInteger batches = new AtomicInteger();

  /** The in-memory administration, with each re-seal batch answered by {@code batch}. */
  private IdempotencyStoreAdministration batchesAnswering(IntFunction<BodyResealBatch> batch) {
    return (IdempotencyStoreAdministration)
        Proxy.newProxyInstance(
            getClass().getClassLoader(),
            new Class<?>[] {IdempotencyStoreAdministration.class},
            (proxy, method, args) -> {
              if (method.getName().equals("resealBodies")) {
                return batch.apply(batches.incrementAndGet());
              }
              try {
                return method.invoke(memory, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }

  @Test
  void aStoreWithNothingSealedWithAnOldKey_runsOneBatch_andRecordsAComplete() {
    BodyResealRun run = RecordsOver.resealing(memory, memory, 10, 5).resealBodiesNow("operator");

    assertThat(run.status()).isEqualTo(BodyResealRun.Status.COMPLETE);
    assertThat(run.rowsResealed()).isZero();
    assertThat(run.detail()).isNull();
    assertThat(memory.recentResealRuns(5)).containsExactly(run);
  }

  @Test
  void aBatchThatResealsNothing_endsTheRun_insteadOfReadingTheSameRowsAgain() {
    // Every batch reads the same 10 rows that do not open: no progress is possible.
    IdempotencyStoreAdministration stuck =
        batchesAnswering(n -> new BodyResealBatch("k2", 0, 0, 10, Map.of(), 10));

    BodyResealRun run = RecordsOver.resealing(memory, stuck, 10, 50).resealBodiesNow("operator");

    assertThat(batches.get()).isEqualTo(1);
    assertThat(run.status()).isEqualTo(BodyResealRun.Status.INCOMPLETE);
    assertThat(run.rowsUnreadable()).isEqualTo(10);
    assertThat(run.detail()).contains("10 rows do not open").doesNotContain("max-batches");
  }

  @Test
  void fullBatches_goOnUntilNoneRemain_andTheRunNamesEveryKeyItMovedFrom() {
    IdempotencyStoreAdministration threeBatches =
        batchesAnswering(
            n ->
                new BodyResealBatch(
                    "k3", 10, 0, 0, Map.of(n == 1 ? "k1" : "k2", 10), 30 - 10L * n));

    BodyResealRun run =
        RecordsOver.resealing(memory, threeBatches, 10, 50).resealBodiesNow("schedule");

    assertThat(batches.get()).isEqualTo(3);
    assertThat(run.status()).isEqualTo(BodyResealRun.Status.COMPLETE);
    assertThat(run.rowsResealed()).isEqualTo(30);
    assertThat(run.fromKeyIds()).containsExactlyInAnyOrder("k1", "k2");
    assertThat(run.toKeyId()).isEqualTo("k3");
    assertThat(run.fromKeyIdsText()).isEqualTo("k1,k2");
  }

  @Test
  void aFailingBatch_isRecordedAsAFailedRun_andThrowsOn() {
    IdempotencyStoreAdministration failing =
        batchesAnswering(
            n -> {
              if (n == 2) {
                throw new IdempotencyStoreUnavailableException("database down", null);
              }
              return new BodyResealBatch("k2", 10, 0, 0, Map.of("k1", 10), 5);
            });

    assertThatThrownBy(
            () -> RecordsOver.resealing(memory, failing, 10, 50).resealBodiesNow("operator"))
        .isInstanceOf(IdempotencyStoreUnavailableException.class);

    BodyResealRun recorded = memory.recentResealRuns(1).get(0);
    assertThat(recorded.status()).isEqualTo(BodyResealRun.Status.FAILED);
    assertThat(recorded.rowsResealed()).isEqualTo(10);
    assertThat(recorded.detail()).contains("database down");
    assertThat(recorded.startedBy()).isEqualTo("operator");
  }
}
