package com.banhang.idempotency.internal;

import com.banhang.idempotency.BodyResealBatch;
import com.banhang.idempotency.BodyResealRun;
import com.banhang.idempotency.ClaimLostException;
import com.banhang.idempotency.ClaimedKey;
import com.banhang.idempotency.IdempotencyKeys;
import com.banhang.idempotency.IdempotencyRecord;
import com.banhang.idempotency.KeyStatistics;
import com.banhang.idempotency.PartitionRetention;
import com.banhang.idempotency.ProcessingPage;
import com.banhang.idempotency.ProcessingQuery;
import com.banhang.idempotency.PurgeRun;
import com.banhang.idempotency.StoredResponse;
import com.banhang.idempotency.spi.IdempotencyStore;
import com.banhang.idempotency.spi.IdempotencyStoreAdministration;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.logging.Level;

/**
 * The library's {@link IdempotencyKeys}: completing, releasing and reading one key go to the store
 * of a request's path; listings, counts, checks and purges to that store's administration.
 */
@ApplicationScoped
public class DefaultIdempotencyKeys implements IdempotencyKeys {

  private static final java.util.logging.Logger LOG =
      java.util.logging.Logger.getLogger(DefaultIdempotencyKeys.class.getName());

  @Inject IdempotencyStore store;
  @Inject IdempotencyStoreAdministration administration;
  @Inject IdempotencySettings settings;
  @Inject Event<PurgeRun> purgeRuns;

  @Override
  public StoredResponse complete(ClaimedKey claim, Response response) {
    StoredResponse stored = StoredResponse.capture(response, settings.storedHeaders());
    if (!store.complete(claim, stored)) {
      throw new ClaimLostException(claim);
    }
    return stored;
  }

  @Override
  public boolean release(ClaimedKey claim) {
    return store.release(claim);
  }

  @Override
  public Optional<IdempotencyRecord> find(String tenant, String operation, String key) {
    return store.find(tenant, operation, key);
  }

  @Override
  public List<IdempotencyRecord> findProcessing(String operation, Duration age, int limit) {
    return administration.findProcessing(operation, age, limit);
  }

  @Override
  public List<IdempotencyRecord> findProcessing(
      String operation, Duration age, Set<String> skipChecks, int limit) {
    return administration.findProcessing(operation, age, skipChecks, limit);
  }

  @Override
  public boolean recordCheck(ClaimedKey claim, String check, String detail) {
    return administration.recordCheck(claim, check, detail);
  }

  @Override
  public ProcessingPage listProcessing(ProcessingQuery query, int offset, int limit) {
    return administration.listProcessing(query, offset, limit);
  }

  @Override
  public KeyStatistics statistics() {
    return administration.statistics();
  }

  @Override
  public OptionalLong tableSizeBytes() {
    return administration.tableSizeBytes();
  }

  @Override
  public Map<String, Duration> configuredTtls() {
    return settings.configuredTtls();
  }

  @Override
  public void recordPurgeRun(PurgeRun run) {
    administration.recordPurgeRun(run);
  }

  @Override
  public List<PurgeRun> recentPurgeRuns(int limit) {
    return administration.recentPurgeRuns(limit);
  }

  @Override
  public PurgeRun purgeExpiredNow(String startedBy) {
    Instant started = Instant.now();
    long startNanos = System.nanoTime();
    // Whole expired days first where the table is partitioned; the batches then take what no
    // partition drop takes (all of it where the table is not partitioned).
    PartitionRetention partitions = retainByPartitions();
    if (!partitions.skipped().isEmpty()) {
      LOG.info(() -> "retention by partition left to a later run: " + partitions.skipped());
    }
    int purged = (int) Math.min(Integer.MAX_VALUE, partitions.rowsDropped());
    for (int batch = 0; batch < settings.purgeMaxBatches(); batch++) {
      int deleted = administration.purgeExpired(settings.purgeBatchSize());
      purged += deleted;
      if (deleted < settings.purgeBatchSize()) {
        break;
      }
      if (!pauseBetweenBatches()) {
        break;
      }
    }
    PurgeRun run =
        new PurgeRun(
            started,
            nodeName(),
            startedBy,
            purged,
            (System.nanoTime() - startNanos) / 1_000_000,
            partitions.partitioned() ? PurgeRun.PARTITIONS : PurgeRun.BATCHED,
            partitions.partitionsDropped());
    administration.recordPurgeRun(run);
    purgeRuns.fire(run);
    removeFullSharedBuckets();
    return run;
  }

  /**
   * The shared new-key limit's buckets that are full again go with the same run, in the same
   * batches; they are not keys, so the run's record does not count them. A failure is logged and
   * left to the next run.
   */
  private void removeFullSharedBuckets() {
    try {
      int removed =
          settings
              .newKeyLimits()
              .removeFullSharedBuckets(settings.purgeBatchSize(), settings.purgeMaxBatches());
      if (removed > 0) {
        LOG.info(() -> "removed " + removed + " full token buckets of the shared new-key limit");
      }
    } catch (RuntimeException e) {
      LOG.log(
          Level.WARNING,
          "removing full token buckets of the shared new-key limit failed; the next run tries again",
          e);
    }
  }

  /**
   * The step by partition; a failure of it (a DDL that could not run) is logged and leaves the run
   * to its batches, which remove what they reach, rather than failing the whole run.
   */
  private PartitionRetention retainByPartitions() {
    try {
      PartitionRetention done =
          administration.retainByPartitions(
              settings.partitionDaysAhead(), settings.partitionLockWait());
      return done == null ? PartitionRetention.NOT_PARTITIONED : done;
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "retention by partition failed; this run deletes in batches only", e);
      return PartitionRetention.NOT_PARTITIONED;
    }
  }

  /**
   * Batches until none remain, a batch reads fewer rows than it may (nothing more to read now) or
   * re-seals none (only rows it may not re-seal are left: going on would read them again and
   * again), or the configured number of batches ran. Between two batches, the retention's pause,
   * for the same reason: a large backlog is moved beside the traffic, not ahead of it.
   */
  @Override
  public BodyResealRun resealBodiesNow(String startedBy) {
    Instant started = Instant.now();
    long startNanos = System.nanoTime();
    int batchSize = settings.resealBatchSize();
    Set<String> from = new TreeSet<>();
    String to = null;
    int resealed = 0;
    int changed = 0;
    int unreadable = 0;
    long remaining = -1;
    boolean batchesLeft = true;
    try {
      for (int batch = 0; batch < settings.resealMaxBatches(); batch++) {
        BodyResealBatch done = administration.resealBodies(batchSize);
        to = done.sealingKeyId();
        from.addAll(done.resealedFrom().keySet());
        resealed += done.resealed();
        changed += done.changedMeanwhile();
        unreadable += done.unreadable();
        remaining = done.remaining();
        if (remaining == 0 || done.examined() < batchSize || done.resealed() == 0) {
          batchesLeft = false;
          break;
        }
        if (!pauseBetweenBatches()) {
          break;
        }
      }
    } catch (RuntimeException e) {
      BodyResealRun failed =
          new BodyResealRun(
              started,
              nodeName(),
              startedBy,
              from,
              to,
              resealed,
              changed,
              unreadable,
              remaining,
              BodyResealRun.Status.FAILED,
              "failed after " + resealed + " rows: " + e.getMessage(),
              (System.nanoTime() - startNanos) / 1_000_000);
      try {
        administration.recordResealRun(failed);
      } catch (RuntimeException notRecorded) {
        e.addSuppressed(notRecorded);
      }
      throw e;
    }
    BodyResealRun run =
        new BodyResealRun(
            started,
            nodeName(),
            startedBy,
            from,
            to,
            resealed,
            changed,
            unreadable,
            remaining,
            remaining == 0 ? BodyResealRun.Status.COMPLETE : BodyResealRun.Status.INCOMPLETE,
            remaining == 0 ? null : incompleteBecause(changed, unreadable, batchesLeft),
            (System.nanoTime() - startNanos) / 1_000_000);
    administration.recordResealRun(run);
    return run;
  }

  private static String incompleteBecause(int changed, int unreadable, boolean batchesLeft) {
    List<String> why = new ArrayList<>();
    if (batchesLeft) {
      why.add("the run reached idempotency.reseal.max-batches");
    }
    if (unreadable > 0) {
      why.add(unreadable + " rows do not open with their key and are left as they are");
    }
    if (changed > 0) {
      why.add(changed + " rows changed while read and are left to the next run");
    }
    if (why.isEmpty()) {
      why.add("rows were sealed with an old key meanwhile, or held locked by other writers");
    }
    return String.join("; ", why) + ": run it again";
  }

  @Override
  public long bodiesWithOldKeys() {
    return administration.countBodiesWithOldKeys();
  }

  @Override
  public List<BodyResealRun> recentResealRuns(int limit) {
    return administration.recentResealRuns(limit);
  }

  /** The configured pause between purge batches; false if the thread was interrupted. */
  private boolean pauseBetweenBatches() {
    long millis = settings.purgeBatchPause().toMillis();
    if (millis <= 0) {
      return true;
    }
    try {
      Thread.sleep(millis);
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** This server, as operators know it: host name, and the Liberty server's name if any. */
  static String nodeName() {
    String host;
    try {
      host = java.net.InetAddress.getLocalHost().getHostName();
    } catch (java.io.IOException e) {
      host = "unknown-host";
    }
    String server = System.getProperty("wlp.server.name");
    return server == null ? host : host + "/" + server;
  }

  @Override
  public int purgeExpired(int batchSize) {
    return administration.purgeExpired(batchSize);
  }
}
