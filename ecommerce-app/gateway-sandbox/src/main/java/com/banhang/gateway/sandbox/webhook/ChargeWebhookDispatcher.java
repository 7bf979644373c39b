package com.banhang.gateway.sandbox.webhook;

import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Delivers the recorded events at least once: every due event is sent, signed; an answer other than
 * 2xx, or none within the timeout, is a failed attempt, and the event is due again after a backoff
 * that doubles up to a cap, until it is taken or its attempts run out. Every attempt is recorded,
 * lost ones too. The delivery faults drawn for the event when it was recorded apply here: its first
 * attempt lost, a duplicate after its success, held back until a later event has gone.
 */
public final class ChargeWebhookDispatcher {

  /** Events taken per query; a run goes on until nothing is due. */
  static final int BATCH = 50;

  /**
   * Queries per run at most, so that a run always ends (a delivery can release held events, which
   * are then due at once).
   */
  static final int MAX_ROUNDS = 20;

  static final String LOST_MESSAGE = "injected fault: this attempt was lost, nothing was sent";

  private final WebhookRepository repository;
  private final ChargeWebhookTransport transport;
  private final StandardWebhookSigner signer;
  private final ChargeWebhookSettings settings;
  private final Clock clock;
  private final ReentrantLock dispatching = new ReentrantLock();

  /**
   * @param settings with a URL: a dispatcher is only made when webhooks are on
   */
  public ChargeWebhookDispatcher(
      WebhookRepository repository,
      ChargeWebhookTransport transport,
      ChargeWebhookSettings settings,
      Clock clock) {
    if (!settings.enabled()) {
      throw new IllegalArgumentException("webhooks are off: no URL to deliver to");
    }
    this.repository = repository;
    this.transport = transport;
    this.signer = StandardWebhookSigner.of(settings.secrets());
    this.settings = settings;
    this.clock = clock;
  }

  /**
   * Sends every event due now, the earliest due first. One run at a time: a run that finds another
   * under way returns at once, the other one covers its events.
   *
   * @return the attempts made (lost ones included)
   */
  public int dispatchDue() {
    if (!dispatching.tryLock()) {
      return 0;
    }
    try {
      int attempts = 0;
      for (int round = 0; round < MAX_ROUNDS; round++) {
        List<WebhookEvent> due = repository.due(clock.instant(), BATCH);
        if (due.isEmpty()) {
          break;
        }
        for (WebhookEvent event : due) {
          attempts += deliver(event);
        }
      }
      return attempts;
    } finally {
      dispatching.unlock();
    }
  }

  /**
   * Delivers the event of {@code chargeId} now if it was drawn "early", on the caller's thread: the
   * charge call's, so the event reaches the shop before the call's answer. The event is not due for
   * the scheduled runs until well after this, so they never send it beside this call.
   */
  public void deliverEarly(String chargeId) {
    Optional<WebhookEvent> event = repository.findByChargeId(chargeId);
    if (event.isPresent()
        && event.get().early()
        && event.get().state() == WebhookEventState.PENDING
        && event.get().failedAttempts() == 0) {
      deliver(event.get());
    }
  }

  /**
   * Sends an event again, whatever its state, as a processor's dashboard does: same id, same body,
   * a fresh timestamp and signature. A resend the shop takes marks a pending or given-up event
   * delivered.
   *
   * @return the attempt, or empty for an unknown event
   */
  public Optional<WebhookAttempt> resend(String eventId) {
    Optional<WebhookEvent> event = repository.findById(eventId);
    if (event.isEmpty()) {
      return Optional.empty();
    }
    WebhookAttempt attempt = send(event.get(), WebhookAttemptKind.RESEND);
    if (attempt.succeeded() && event.get().state() != WebhookEventState.DELIVERED) {
      repository.markDelivered(eventId);
    }
    return Optional.of(attempt);
  }

  /** A scheduled attempt (or an early one) at {@code event}; returns the attempts made. */
  private int deliver(WebhookEvent event) {
    if (event.loseFirstAttempt() && event.failedAttempts() == 0) {
      repository.recordAttempt(
          event.id(), WebhookAttemptKind.LOST, clock.instant(), null, LOST_MESSAGE, 0);
      failed(event);
      return 1;
    }
    WebhookAttempt attempt = send(event, WebhookAttemptKind.DELIVERY);
    // This event is on its way: the events held back before it now go after it.
    repository.releaseHeldBefore(event, clock.instant());
    if (!attempt.succeeded()) {
      failed(event);
      return 1;
    }
    repository.markDelivered(event.id());
    if (event.duplicate()) {
      send(event, WebhookAttemptKind.DUPLICATE);
      return 2;
    }
    return 1;
  }

  private void failed(WebhookEvent event) {
    int failures = event.failedAttempts() + 1;
    if (failures >= settings.maxAttempts()) {
      repository.markFailed(event.id(), failures);
    } else {
      repository.scheduleRetry(
          event.id(), failures, clock.instant().plus(settings.backoff(failures)));
    }
  }

  private WebhookAttempt send(WebhookEvent event, WebhookAttemptKind kind) {
    Instant started = clock.instant();
    long startedNanos = System.nanoTime();
    Integer status = null;
    String error = null;
    try {
      status =
          transport.post(
              settings.url().orElseThrow(),
              signer.headers(event.id(), started.getEpochSecond(), event.payload()),
              event.payload(),
              settings.timeout());
    } catch (IOException e) {
      error = e.getClass().getSimpleName() + ": " + e.getMessage();
    } catch (InterruptedException e) {
      // Keep the flag for the container; the attempt counts as failed and is retried.
      Thread.currentThread().interrupt();
      error = "interrupted while waiting for the answer";
    }
    long durationMs = (System.nanoTime() - startedNanos) / 1_000_000;
    return repository.recordAttempt(event.id(), kind, started, status, error, durationMs);
  }
}
