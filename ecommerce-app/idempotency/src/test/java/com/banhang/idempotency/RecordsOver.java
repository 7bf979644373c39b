package com.banhang.idempotency;

import com.banhang.idempotency.persistence.IdempotencyStore;

/** {@link IdempotencyRecords} over a given store, for tests in other packages. */
public final class RecordsOver {

  private RecordsOver() {}

  /** Enough for the reads (find, findProcessing, listProcessing, statistics). */
  public static IdempotencyRecords store(IdempotencyStore store) {
    IdempotencyRecords records = new IdempotencyRecords();
    records.store = store;
    return records;
  }
}
