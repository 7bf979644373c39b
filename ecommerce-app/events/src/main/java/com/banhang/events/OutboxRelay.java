package com.banhang.events;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Publishes the outbox, at least once and in order per aggregate, from every node at once
 * (docs/events.md, "The relay"): a batch is claimed under a lease in a short transaction, sent with
 * no transaction open, and each event marked published, or due again later, in another. An event
 * whose node died mid-send is claimed again once its lease runs out. An event that keeps failing is
 * parked for an operator, and its aggregate's later events wait behind it.
 *
 * <p>The application schedules {@link #relayDue()} (and {@link #purgePublished()}) on its managed
 * executor.
 */
@ApplicationScoped
public class OutboxRelay {

  private static final Logger LOG = Logger.getLogger(OutboxRelay.class.getName());

  /** Rounds of one scheduled run: an aggregate's next event becomes claimable once per round. */
  private static final int MAX_ROUNDS = 20;

  @Inject OutboxStore store;
  @Inject Instance<EventTransport> transports;

  @Inject
  @ConfigProperty(name = "events.relay.batch-size", defaultValue = "100")
  int batchSize;

  /** Longer than any transport's send: a lease that runs out mid-send publishes twice. */
  @Inject
  @ConfigProperty(name = "events.relay.lease", defaultValue = "PT60S")
  Duration lease;

  @Inject
  @ConfigProperty(name = "events.relay.max-attempts", defaultValue = "12")
  int maxAttempts;

  @Inject
  @ConfigProperty(name = "events.relay.first-retry", defaultValue = "PT1S")
  Duration firstRetry;

  @Inject
  @ConfigProperty(name = "events.relay.max-retry", defaultValue = "PT10M")
  Duration maxRetry;

  @Inject
  @ConfigProperty(name = "events.retention", defaultValue = "P7D")
  Duration retention;

  /** This relay's name on the leases it takes: unique per process. */
  private final String owner = "relay-" + UUID.randomUUID();

  /**
   * Relays until nothing is due (or {@value #MAX_ROUNDS} rounds), so that an aggregate's events
   * follow one another within one run.
   *
   * @return how many events were published
   */
  public int relayDue() {
    int published = 0;
    for (int round = 0; round < MAX_ROUNDS; round++) {
      RelayResult result = relayOnce();
      published += result.published();
      if (result.claimed() == 0 || result.published() == 0) {
        break;
      }
    }
    return published;
  }

  /** What one round did. */
  public record RelayResult(int claimed, int published, int failed) {}

  /** Claims one batch and publishes it through every enabled transport. */
  public RelayResult relayOnce() {
    List<EventTransport> enabled = new ArrayList<>();
    for (EventTransport transport : transports) {
      if (transport.enabled()) {
        enabled.add(transport);
      }
    }
    if (enabled.isEmpty()) {
      // No transport: events wait in the outbox until one is configured.
      return new RelayResult(0, 0, 0);
    }
    List<OutboxEvent> batch = store.claim(owner, batchSize, lease);
    // At most one event per aggregate is in a batch (only the lowest unpublished one is
    // claimable), so the batch is sent all at once.
    List<CompletableFuture<Void>> sends = new ArrayList<>(batch.size());
    for (OutboxEvent event : batch) {
      sends.add(send(event, enabled));
    }
    int published = 0;
    int failed = 0;
    long deadline = System.nanoTime() + lease.toNanos();
    for (int i = 0; i < batch.size(); i++) {
      OutboxEvent event = batch.get(i);
      Optional<String> error = await(sends.get(i), deadline);
      if (error.isEmpty()) {
        if (store.markPublished(event.id(), owner)) {
          published++;
        }
      } else {
        failed++;
        boolean park = event.attempts() >= maxAttempts;
        store.markFailed(event.id(), owner, error.get(), retryAfter(event.attempts()), park);
        if (park) {
          LOG.warning(
              () ->
                  "event "
                      + event.id()
                      + " ("
                      + event.type()
                      + ") parked after "
                      + event.attempts()
                      + " attempts: "
                      + error.get());
        }
      }
    }
    return new RelayResult(batch.size(), published, failed);
  }

  private static CompletableFuture<Void> send(OutboxEvent event, List<EventTransport> enabled) {
    List<CompletableFuture<Void>> each = new ArrayList<>(enabled.size());
    for (EventTransport transport : enabled) {
      CompletableFuture<Void> one;
      try {
        one = transport.publish(event).toCompletableFuture();
      } catch (RuntimeException e) {
        one = CompletableFuture.failedFuture(e);
      }
      each.add(
          one.exceptionallyCompose(
              e ->
                  CompletableFuture.failedFuture(
                      new TransportFailed(transport.name(), rootCause(e)))));
    }
    return CompletableFuture.allOf(each.toArray(CompletableFuture[]::new));
  }

  /** Empty when the send completed; the reason otherwise. */
  private static Optional<String> await(CompletableFuture<Void> send, long deadline) {
    try {
      send.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      return Optional.empty();
    } catch (TimeoutException e) {
      send.cancel(false);
      return Optional.of("not acknowledged within the relay's lease");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() instanceof TransportFailed ? e.getCause() : rootCause(e);
      return Optional.of(String.valueOf(cause.getMessage()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.of("interrupted");
    }
  }

  /**
   * Exponential from {@code events.relay.first-retry}, capped at {@code events.relay.max-retry},
   * with full jitter, so that many events failing together do not come back together.
   */
  Duration retryAfter(int attempts) {
    long base = firstRetry.toMillis() << Math.min(20, Math.max(0, attempts - 1));
    long capped = Math.min(maxRetry.toMillis(), Math.max(0, base));
    return Duration.ofMillis(capped / 2 + ThreadLocalRandom.current().nextLong(capped / 2 + 1));
  }

  /** Events the relay gave up on, oldest first, for the operator. */
  public List<OutboxStore.ParkedEvent> parked(int limit) {
    return store.parked(limit);
  }

  /** Puts a parked event back in line, due now. */
  public boolean retry(String eventId) {
    boolean unparked = store.unpark(eventId);
    if (unparked) {
      LOG.info(() -> "parked event " + eventId + " put back in line");
    }
    return unparked;
  }

  /**
   * Deletes published events older than {@code events.retention}, a batch at a time.
   *
   * @return how many were deleted
   */
  public int purgePublished() {
    int total = 0;
    int deleted;
    do {
      deleted = store.purgePublished(retention, 1000);
      total += deleted;
    } while (deleted == 1000);
    if (total > 0) {
      int purged = total;
      LOG.log(Level.FINE, () -> "purged " + purged + " published events");
    }
    return total;
  }

  private static Throwable rootCause(Throwable e) {
    Throwable cause = e;
    while ((cause instanceof ExecutionException
            || cause instanceof java.util.concurrent.CompletionException)
        && cause.getCause() != null) {
      cause = cause.getCause();
    }
    return cause;
  }

  /** A transport's failure, named after the transport for the operator. */
  private static final class TransportFailed extends RuntimeException {
    TransportFailed(String transport, Throwable cause) {
      super(transport + ": " + cause.getMessage(), cause, false, false);
    }
  }
}
