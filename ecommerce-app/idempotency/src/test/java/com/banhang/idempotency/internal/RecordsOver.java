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
}
