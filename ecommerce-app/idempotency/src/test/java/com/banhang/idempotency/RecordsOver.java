package com.banhang.idempotency;

import com.banhang.idempotency.spi.IdempotencyStore;
import com.banhang.idempotency.spi.IdempotencyStoreAdministration;

/** {@link IdempotencyKeys} over a given store and administration, for tests in other packages. */
public final class RecordsOver {

  private RecordsOver() {}

  /** Enough for the reads (find, findProcessing, listProcessing, statistics). */
  public static IdempotencyKeys store(
      IdempotencyStore store, IdempotencyStoreAdministration administration) {
    IdempotencyKeys records = new IdempotencyKeys();
    records.store = store;
    records.administration = administration;
    return records;
  }
}
