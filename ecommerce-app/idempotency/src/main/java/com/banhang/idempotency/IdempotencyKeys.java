package com.banhang.idempotency;

import com.banhang.idempotency.internal.IdempotencySettings;
import com.banhang.idempotency.internal.StoredResponses;
import com.banhang.idempotency.spi.IdempotencyStore;
import com.banhang.idempotency.spi.IdempotencyStoreAdministration;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Keys outside a request: what reconciliation, retention and the operator console need.
 *
 * <p>Every write is fenced by the attempt in the {@link ClaimedKey}: it applies only while that
 * attempt still owns a key in processing.
 */
@ApplicationScoped
public class IdempotencyKeys {

  @Inject IdempotencyStore store;
  @Inject IdempotencyStoreAdministration administration;
  @Inject IdempotencySettings settings;
  @Inject Event<PurgeRun> purgeRuns;

  /**
   * Completes a claimed key with the response its client should be given, in the caller's JTA
   * transaction (or in a transaction of its own when none is active).
   *
   * @return the stored response
   * @throws ClaimLostException when the attempt no longer owns the key
   */
  public StoredResponse complete(ClaimedKey claim, Response response) {
    StoredResponse stored = StoredResponses.capture(response, settings.storedHeaders());
    if (!store.complete(claim, stored)) {
      throw new ClaimLostException(claim);
    }
    return stored;
  }

  /**
   * Releases a claim whose operation certainly had no effect, so that the client's next retry runs
   * as new (under a higher attempt number).
   *
   * @return false when the attempt no longer owns the key (nothing was changed)
   */
  public boolean release(ClaimedKey claim) {
    return store.release(claim);
  }

  /** The key's record, whatever its state. */
  public Optional<IdempotencyRecord> find(String tenant, String operation, String key) {
    return store.find(tenant, operation, key);
  }

  /**
   * Keys of {@code operation} still processing that were claimed more than {@code age} ago, by the
   * database's clock.
   */
  public List<IdempotencyRecord> findProcessing(String operation, Duration age, int limit) {
    return administration.findProcessing(operation, age, limit);
  }

  /**
   * Keys of {@code operation} still processing that were claimed more than {@code age} ago by the
   * database's clock, oldest first, without those whose last check is one of {@code skipChecks}
   * (keys parked for an operator, which must not fill every batch).
   */
  public List<IdempotencyRecord> findProcessing(
      String operation, Duration age, Set<String> skipChecks, int limit) {
    return administration.findProcessing(operation, age, skipChecks, limit);
  }

  /**
   * Notes on a processing key what its last check found (for payments: the reconciliation outcome),
   * so that operators see it and readers can skip it. Fenced by the claim's attempt.
   *
   * @return false when the attempt no longer owns the key (nothing changed)
   */
  public boolean recordCheck(ClaimedKey claim, String check, String detail) {
    return administration.recordCheck(claim, check, detail);
  }

  /** Processing keys matching {@code query}, oldest first, one page. */
  public ProcessingPage listProcessing(ProcessingQuery query, int offset, int limit) {
    return administration.listProcessing(query, offset, limit);
  }

  /** Keys by operation, status and age, now by the database's clock. */
  public KeyStatistics statistics() {
    return administration.statistics();
  }

  /** Bytes the key table takes, where the database reports it. */
  public OptionalLong tableSizeBytes() {
    return administration.tableSizeBytes();
  }

  /** The time-to-live of each operation that has one configured or used so far. */
  public Map<String, Duration> configuredTtls() {
    return settings.configuredTtls();
  }

  public void recordPurgeRun(PurgeRun run) {
    administration.recordPurgeRun(run);
  }

  /** The latest purge runs on any node, newest first. */
  public List<PurgeRun> recentPurgeRuns(int limit) {
    return administration.recentPurgeRuns(limit);
  }

  /**
   * One purge run: deletes finished keys past their expiry in bounded batches, with the configured
   * pause between two, until a batch comes back short (or the configured number of batches ran),
   * never a processing key; records the run (when, on which node, by whom, rows, duration) and
   * announces it as a CDI event so that metrics can count it. A retry after expiry is a new
   * request.
   *
   * @param startedBy {@code schedule}, or the operator's name
   */
  public PurgeRun purgeExpiredNow(String startedBy) {
    Instant started = Instant.now();
    long startNanos = System.nanoTime();
    int purged = 0;
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
            started, nodeName(), startedBy, purged, (System.nanoTime() - startNanos) / 1_000_000);
    administration.recordPurgeRun(run);
    purgeRuns.fire(run);
    return run;
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

  /** Deletes up to {@code batchSize} finished keys past their expiry; never a processing one. */
  public int purgeExpired(int batchSize) {
    return administration.purgeExpired(batchSize);
  }
}
