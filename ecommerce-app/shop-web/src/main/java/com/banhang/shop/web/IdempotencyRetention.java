package com.banhang.shop.web;

import com.banhang.idempotency.IdempotencyRecords;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Purges expired keys (CONTRACT s8): completed and released rows past their operation's TTL go, in
 * bounded batches so that no run holds locks for long; processing rows never go. A retry after
 * expiry is a new request. Run by {@link BackgroundJobs}.
 */
@ApplicationScoped
public class IdempotencyRetention {

  private static final Logger LOG = Logger.getLogger(IdempotencyRetention.class.getName());

  @Inject IdempotencyRecords records;

  @Inject
  @ConfigProperty(name = "idempotency.retention.batch-size", defaultValue = "1000")
  int batchSize;

  /** Upper bound of batches per run, so one run cannot go on for ever behind a flood of keys. */
  @Inject
  @ConfigProperty(name = "idempotency.retention.max-batches", defaultValue = "100")
  int maxBatches;

  /** Deletes batches until one comes back short; returns how many rows went. */
  public int purgeOnce() {
    int purged = 0;
    try {
      for (int batch = 0; batch < maxBatches; batch++) {
        int deleted = records.purgeExpired(batchSize);
        purged += deleted;
        if (deleted < batchSize) {
          break;
        }
      }
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "purging expired idempotency keys failed", e);
    }
    int total = purged;
    if (total > 0) {
      LOG.info(() -> "purged " + total + " expired idempotency keys");
    }
    return purged;
  }
}
