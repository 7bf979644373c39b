package com.banhang.shop.web;

import com.banhang.events.OutboxRelay;
import com.banhang.events.webhooks.WebhookDispatcher;
import com.banhang.shop.admin.application.ConsoleMinuteWriter;
import com.banhang.shop.payments.api.GatewayEvents;
import com.banhang.shop.payments.api.LateChargeSweep;
import com.banhang.shop.payments.api.Reconciliation;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The shop's background work, on the server's managed scheduler, on every node: reconciliation of
 * payments whose outcome is unknown and the late-charge sweep of abandoned payments
 * (docs/payments.md), the purge of expired keys (docs/idempotency.md), the operator console's
 * minute of charts (docs/operations.md, "Overview"), and the relay of the outbox with the retention
 * of what it published (docs/events.md). An interval of zero turns a job off; on-demand runs still
 * work.
 */
@ApplicationScoped
public class BackgroundJobs {

  private static final Logger LOG = Logger.getLogger(BackgroundJobs.class.getName());

  /**
   * Seconds after the minute for the minute's job: events of the minute that just ended have had
   * time to be counted (an event is counted in the minute its request saw).
   */
  private static final long MINUTE_JOB_OFFSET_MS = 5_000;

  /** Only says when a job is due; the run itself goes to {@link #jobs}. */
  @Resource(lookup = "java:comp/DefaultManagedScheduledExecutorService")
  ManagedScheduledExecutorService scheduler;

  /**
   * Runs the jobs, at most two at a time (server.xml, shop.background-jobs.max): Liberty runs every
   * managed task on the one pool that also serves HTTP requests, and jobs stuck on a database that
   * accepts connections and never answers once held every thread of it, so that readiness waited
   * about 9 s for the pool to grow (docs/observability.md, "Readiness while the database hangs").
   * The bound is the executor's concurrency policy, which Liberty applies to submitted tasks but
   * not to scheduled ones: hence a schedule that submits.
   */
  @Resource(lookup = "concurrent/shopBackgroundJobs")
  ManagedExecutorService jobs;

  @Inject Reconciliation reconciliation;
  @Inject IdempotencyRetention retention;
  @Inject LateChargeSweep lateChargeSweep;
  @Inject ConsoleMinuteWriter consoleMinutes;
  @Inject OutboxRelay relay;
  @Inject WebhookDispatcher webhooks;
  @Inject GatewayEvents gatewayEvents;

  @Inject
  @ConfigProperty(name = "payments.reconciliation.interval", defaultValue = "PT1M")
  Duration reconciliationInterval;

  @Inject
  @ConfigProperty(name = "payments.late-charges.interval", defaultValue = "PT10M")
  Duration lateChargesInterval;

  @Inject
  @ConfigProperty(name = "idempotency.retention.interval", defaultValue = "PT1H")
  Duration retentionInterval;

  /**
   * Every node relays: the claim skips what another node holds, so nodes share the work. A second
   * is the longest an event waits for its first send when the outbox was empty.
   */
  @Inject
  @ConfigProperty(name = "events.relay.interval", defaultValue = "PT1S")
  Duration relayInterval;

  /** The same for the webhooks' deliveries: every node sends its share. */
  @Inject
  @ConfigProperty(name = "events.webhooks.interval", defaultValue = "PT1S")
  Duration webhooksInterval;

  /**
   * Each received webhook event is processed at once; this run brings back those that waited for
   * their payment's own request or failed, and any a stopped node left pending.
   */
  @Inject
  @ConfigProperty(name = "payments.gateway.webhooks.interval", defaultValue = "PT1S")
  Duration gatewayEventsInterval;

  @Inject
  @ConfigProperty(name = "events.retention.interval", defaultValue = "PT1H")
  Duration eventRetentionInterval;

  private final List<ScheduledFuture<?>> runs = new ArrayList<>();

  void start(@Observes @Initialized(ApplicationScoped.class) Object started) {
    every(reconciliationInterval, "reconciliation", reconciliation::reconcileDueKeys);
    every(lateChargesInterval, "late-charge sweep", lateChargeSweep::sweep);
    every(retentionInterval, "retention", retention::purgeOnce);
    everyMinute("console minutes", consoleMinutes::writeMinute);
    every(relayInterval, "outbox relay", relay::relayDue);
    every(webhooksInterval, "webhook deliveries", webhooks::deliverDue);
    every(eventRetentionInterval, "outbox retention", relay::purgePublished);
    every(gatewayEventsInterval, "gateway events", gatewayEvents::processDue);
  }

  private void every(Duration interval, String name, Runnable job) {
    if (interval.isZero() || interval.isNegative()) {
      LOG.info(() -> "scheduled " + name + " is off");
      return;
    }
    long millis = interval.toMillis();
    runs.add(
        scheduler.scheduleWithFixedDelay(
            new OneAtATime(name, job, jobs), millis, millis, TimeUnit.MILLISECONDS));
  }

  /**
   * At a fixed rate, a few seconds after each minute starts: the job writes the minute that just
   * ended, and a fixed delay would drift past minute boundaries and skip a minute now and then. Not
   * configurable: the charts are per minute.
   */
  private void everyMinute(String name, Runnable job) {
    long now = Instant.now().toEpochMilli();
    long firstRun = (now / 60_000 + 1) * 60_000 + MINUTE_JOB_OFFSET_MS;
    runs.add(
        scheduler.scheduleAtFixedRate(
            new OneAtATime(name, job, jobs), firstRun - now, 60_000, TimeUnit.MILLISECONDS));
  }

  @PreDestroy
  void stop() {
    runs.forEach(run -> run.cancel(false));
  }

  /**
   * What the schedule runs when a job is due: it submits one run of the job to the bounded
   * executor, unless the last one submitted is still queued or running. So a job stuck on the
   * database, or waiting for a free slot, is never queued twice; it runs again once that run ends
   * and the job is next due.
   */
  static final class OneAtATime implements Runnable {
    private final String name;
    private final Runnable job;
    private final ExecutorService executor;
    private Future<?> last;

    OneAtATime(String name, Runnable job, ExecutorService executor) {
      this.name = name;
      this.job = job;
      this.executor = executor;
    }

    @Override
    public synchronized void run() {
      if (last != null && !last.isDone()) {
        return;
      }
      try {
        last = executor.submit(this::runGuarded);
      } catch (RejectedExecutionException e) {
        // The server is stopping, or the policy's queue is full: the next due time tries again.
        LOG.log(Level.WARNING, name + " run not started", e);
      }
    }

    private void runGuarded() {
      try {
        job.run();
      } catch (RuntimeException e) {
        // A failed run must not stop the job's next runs.
        LOG.log(Level.WARNING, name + " run failed", e);
      }
    }
  }
}
