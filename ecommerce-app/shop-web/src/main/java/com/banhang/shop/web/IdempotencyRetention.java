package com.banhang.shop.web;

import com.banhang.idempotency.IdempotencyKeys;
import com.banhang.idempotency.PurgeRun;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The scheduled purge of expired keys (docs/idempotency.md, retention): completed and released rows
 * past their operation's TTL go, in bounded batches (idempotency.retention.batch-size and
 * max-batches), or, where the key table is partitioned by expiry day (PostgreSQL from V22), with
 * their whole day once it is over, the next days' partitions created ahead (docs/scaling.md,
 * "Retention by partition"); processing rows never go. Every run is recorded, so operators see it
 * in the console. Run by {@link BackgroundJobs}; operators can also run it from the console.
 */
@ApplicationScoped
public class IdempotencyRetention {

  private static final Logger LOG = Logger.getLogger(IdempotencyRetention.class.getName());

  @Inject IdempotencyKeys keys;

  /** One scheduled run; returns how many rows went (0 when the run failed, which is logged). */
  public int purgeOnce() {
    try {
      PurgeRun run = keys.purgeExpiredNow("schedule");
      if (run.rowsDeleted() > 0) {
        LOG.info(() -> "purged " + run.rowsDeleted() + " expired idempotency keys");
      }
      return run.rowsDeleted();
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "purging expired idempotency keys failed", e);
      return 0;
    }
  }
}
