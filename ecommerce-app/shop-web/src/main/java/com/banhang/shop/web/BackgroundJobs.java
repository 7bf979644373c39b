package com.banhang.shop.web;

import com.banhang.events.OutboxRelay;
import com.banhang.events.webhooks.WebhookDispatcher;
import com.banhang.shop.admin.application.ConsoleMinuteWriter;
import com.banhang.shop.payments.api.GatewayEvents;
import com.banhang.shop.payments.api.LateChargeSweep;
import com.banhang.shop.payments.api.Reconciliation;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
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

  @Resource(lookup = "java:comp/DefaultManagedScheduledExecutorService")
  ManagedScheduledExecutorService scheduler;

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
            guarded(name, job), millis, millis, TimeUnit.MILLISECONDS));
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
            guarded(name, job), firstRun - now, 60_000, TimeUnit.MILLISECONDS));
  }

  private static Runnable guarded(String name, Runnable job) {
    return () -> {
      try {
        job.run();
      } catch (RuntimeException e) {
        // A failed run must not cancel the schedule.
        LOG.log(Level.WARNING, name + " run failed", e);
      }
    };
  }

  @PreDestroy
  void stop() {
    runs.forEach(run -> run.cancel(false));
  }
}
