package com.banhang.idempotency.internal;

import com.banhang.idempotency.IdempotencyKeys;
import com.banhang.idempotency.spi.IdempotencyStore;
import com.banhang.idempotency.spi.IdempotencyStoreAdministration;

/** The library's {@link IdempotencyKeys} over a given store and administration, for tests. */
public final class RecordsOver {

  private RecordsOver() {}

  /** Enough for the reads (find, findProcessing, listProcessing, statistics). */
  public static IdempotencyKeys store(
      IdempotencyStore store, IdempotencyStoreAdministration administration) {
    DefaultIdempotencyKeys records = new DefaultIdempotencyKeys();
    records.store = store;
    records.administration = administration;
    return records;
  }

  /** The same, with re-seal runs of at most {@code maxBatches} batches of {@code batchSize}. */
  public static IdempotencyKeys resealing(
      IdempotencyStore store,
      IdempotencyStoreAdministration administration,
      int batchSize,
      int maxBatches) {
    DefaultIdempotencyKeys records = (DefaultIdempotencyKeys) store(store, administration);
    IdempotencySettings settings = new IdempotencySettings();
    settings.resealBatchSize = batchSize;
    settings.resealMaxBatches = maxBatches;
    records.settings = settings;
    return records;
  }
}
