package com.banhang.shop.web.metrics;

import com.banhang.idempotency.IdempotencyKeys;
import com.banhang.idempotency.KeyStatistics;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The key table's statistics for the gauges, taken at most once per {@code
 * idempotency.metrics.statistics-max-age}: a scrape reads a dozen gauges and several scrapers may
 * poll, but the database sees one query set per period, and requests never trigger one.
 *
 * <p>The query runs on a managed thread and a scrape waits for it only {@code
 * idempotency.metrics.statistics-wait}: a slow or hung database must not hang /metrics, which is
 * how operators would find out about it. Until a new answer arrives the gauges show the last one
 * (readiness reports the database itself).
 */
@ApplicationScoped
public class KeyStatisticsCache {

  private static final Logger LOG = Logger.getLogger(KeyStatisticsCache.class.getName());

  @Inject IdempotencyKeys keys;

  @Resource(lookup = "java:comp/DefaultManagedExecutorService")
  ManagedExecutorService executor;

  @Inject
  @ConfigProperty(name = "idempotency.metrics.statistics-max-age", defaultValue = "PT5S")
  Duration maxAge;

  @Inject
  @ConfigProperty(name = "idempotency.metrics.statistics-wait", defaultValue = "PT2S")
  Duration wait;

  private KeyStatistics latest;
  private long attemptedAtNanos;
  private boolean attempted;
  private Future<KeyStatistics> running;

  /** The latest statistics, refreshed first if they are older than the maximum age. */
  public synchronized Optional<KeyStatistics> current() {
    long now = System.nanoTime();
    if (running != null && running.isDone()) {
      collect();
    }
    if (!attempted || now - attemptedAtNanos >= maxAge.toNanos()) {
      // Stamped at the attempt, not at the answer: a timed-out query is not retried by every
      // gauge of the same scrape, each waiting again.
      attempted = true;
      attemptedAtNanos = now;
      if (running == null) {
        running = executor.submit(keys::statistics);
      }
      try {
        running.get(wait.toMillis(), TimeUnit.MILLISECONDS);
        collect();
      } catch (TimeoutException e) {
        LOG.warning(() -> "key statistics took longer than " + wait + "; gauges show older values");
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (ExecutionException e) {
        collect();
      }
    }
    return Optional.ofNullable(latest);
  }

  private void collect() {
    try {
      latest = running.get();
    } catch (ExecutionException e) {
      LOG.log(Level.WARNING, "reading key statistics failed; gauges show older values", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      running = null;
    }
  }
}
