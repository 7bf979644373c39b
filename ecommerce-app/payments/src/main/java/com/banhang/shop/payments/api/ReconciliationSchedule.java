package com.banhang.shop.payments.api;

import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Runs reconciliation on every node at a fixed delay, on the server's managed scheduler. The
 * defaults follow seed 001: every minute, keys older than two minutes; both far inside the
 * gateway's 24-hour key retention, after which asking by key would no longer find the charge.
 */
@ApplicationScoped
public class ReconciliationSchedule {

  private static final Logger LOG = Logger.getLogger(ReconciliationSchedule.class.getName());

  @Resource(lookup = "java:comp/DefaultManagedScheduledExecutorService")
  ManagedScheduledExecutorService scheduler;

  @Inject Reconciliation reconciliation;

  /** Delay between runs; zero turns the schedule off (on-demand runs still work). */
  @Inject
  @ConfigProperty(name = "payments.reconciliation.interval", defaultValue = "PT1M")
  Duration interval;

  /** Keys younger than this may still have their request running: left alone. */
  @Inject
  @ConfigProperty(name = "payments.reconciliation.min-age", defaultValue = "PT2M")
  Duration minimumAge;

  private ScheduledFuture<?> runs;

  void start(@Observes @Initialized(ApplicationScoped.class) Object started) {
    if (interval.isZero() || interval.isNegative()) {
      LOG.info("scheduled reconciliation is off");
      return;
    }
    runs =
        scheduler.scheduleWithFixedDelay(
            this::runOnce, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
  }

  private void runOnce() {
    try {
      reconciliation.reconcile(minimumAge);
    } catch (RuntimeException e) {
      // A failed run must not cancel the schedule.
      LOG.log(Level.WARNING, "reconciliation run failed", e);
    }
  }

  @PreDestroy
  void stop() {
    if (runs != null) {
      runs.cancel(false);
    }
  }

  public Duration minimumAge() {
    return minimumAge;
  }
}
