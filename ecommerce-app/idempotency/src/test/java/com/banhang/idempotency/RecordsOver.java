package com.banhang.idempotency;

import com.banhang.idempotency.spi.IdempotencyStore;

/** {@link IdempotencyKeys} over a given store, for tests in other packages. */
public final class RecordsOver {

  private RecordsOver() {}

  /** Enough for the reads (find, findProcessing, listProcessing, statistics). */
  public static IdempotencyKeys store(IdempotencyStore store) {
    IdempotencyKeys records = new IdempotencyKeys();
    records.store = store;
    return records;
  }
}
