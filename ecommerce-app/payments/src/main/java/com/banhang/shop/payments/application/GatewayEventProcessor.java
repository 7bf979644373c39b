package com.banhang.shop.payments.application;

import com.banhang.shop.payments.api.GatewayWebhookCounted;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.RejectedExecutionException;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Processes the processor's webhook events off the request thread (docs/payments.md, "Webhooks
 * in"): each received event at once on the server's managed executor, and every pending one that is
 * due on a schedule (BackgroundJobs), which also brings back an event whose processing failed or
 * waited. Each event is processed in a transaction of its own ({@link GatewayEventStep}); a failure
 * is counted on the event, which is tried again later, and parked after {@code
 * payments.gateway.webhooks.max-attempts} failures.
 */
@ApplicationScoped
public class GatewayEventProcessor {

  private static final Logger LOG = Logger.getLogger(GatewayEventProcessor.class.getName());

  /** The longest wait between two tries of an event whose processing fails. */
  static final Duration MAX_RETRY = Duration.ofMinutes(10);

  @Inject GatewayEventStore store;
  @Inject GatewayEventStep step;
  @Inject Event<GatewayWebhookCounted> counted;

  @Resource(lookup = "java:comp/DefaultManagedExecutorService")
  ManagedExecutorService executor;

  /** How long an event waits for the payment's own request, still running, before a new look. */
  @Inject
  @ConfigProperty(name = "payments.gateway.webhooks.wait", defaultValue = "PT2S")
  Duration wait;

  /** The first wait after a failed processing; it doubles with every failure. */
  @Inject
  @ConfigProperty(name = "payments.gateway.webhooks.retry-initial", defaultValue = "PT5S")
  Duration retryInitial;

  @Inject
  @ConfigProperty(name = "payments.gateway.webhooks.max-attempts", defaultValue = "10")
  int maxAttempts;

  @Inject
  @ConfigProperty(name = "payments.gateway.webhooks.batch-size", defaultValue = "100")
  int batchSize;

  Clock clock = Clock.systemUTC();

  /** Every pending event that is due, one transaction each (what the schedule runs). */
  public int processDue() {
    int processed = 0;
    for (GatewayEventStore.Key key : store.due(clock.instant(), Math.max(1, batchSize))) {
      if (processIsolated(key)) {
        processed++;
      }
    }
    return processed;
  }

  /**
   * Processes one event soon, on the managed executor, after the caller's work: how a received
   * event is settled within milliseconds rather than at the next scheduled run. A refused task is
   * left to the schedule.
   */
  public void processSoon(String provider, String eventId) {
    GatewayEventStore.Key key = new GatewayEventStore.Key(provider, eventId);
    try {
      executor.execute(() -> processIsolated(key));
    } catch (RejectedExecutionException e) {
      LOG.log(Level.FINE, "the executor refused a gateway event; the schedule takes it", e);
    }
  }

  /** Processes one event now, on the caller's thread (an operator's retry, the tests). */
  public boolean processNow(String provider, String eventId) {
    return processIsolated(new GatewayEventStore.Key(provider, eventId));
  }

  private boolean processIsolated(GatewayEventStore.Key key) {
    Instant now = clock.instant();
    try {
      Optional<ChargeEventSettlement.Decision> decision = step.process(key, now, wait);
      decision.ifPresent(
          d -> count(d.waits() ? "waited" : d.status().name().toLowerCase(Locale.ROOT)));
      return decision.isPresent();
    } catch (RuntimeException e) {
      count("failed");
      LOG.log(
          Level.WARNING,
          "could not process gateway event " + key.eventId() + "; tried again later",
          e);
      try {
        store.failed(
            key,
            failures -> now.plus(backoff(failures)),
            describe(e),
            Math.max(1, maxAttempts),
            now);
      } catch (RuntimeException unrecorded) {
        LOG.log(Level.WARNING, "could not record the failure of a gateway event", unrecorded);
      }
      return false;
    }
  }

  /** {@code retryInitial} after the first failure, doubling, at most {@link #MAX_RETRY}. */
  Duration backoff(int failures) {
    Duration next = retryInitial;
    for (int i = 1; i < failures && next.compareTo(MAX_RETRY) < 0; i++) {
      next = next.multipliedBy(2);
    }
    return next.compareTo(MAX_RETRY) > 0 ? MAX_RETRY : next;
  }

  /** Metrics only: an observer that fails changes nothing here. */
  void count(String result) {
    try {
      counted.fire(new GatewayWebhookCounted(result));
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "an observer of GatewayWebhookCounted failed", e);
    }
  }

  private static String describe(RuntimeException e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return "processing failed: " + root.getClass().getSimpleName() + ": " + root.getMessage();
  }
}
