package com.banhang.events.webhooks;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Sends the recorded webhook deliveries, from every node at once: a batch of due deliveries is
 * claimed under a lease in a short transaction, sent concurrently with no transaction open, and
 * each outcome (with its line in the delivery log) recorded in another. A delivery whose node died
 * mid-send is claimed again once its lease runs out, with the same {@code webhook-id}.
 *
 * <ul>
 *   <li>2xx: delivered.
 *   <li>410 Gone: the endpoint is disabled, its deliveries wait as {@link DeliveryStatus#DISABLED}
 *       and nothing more is sent to it until an operator re-enables it ({@link
 *       WebhookOperations#enable}).
 *   <li>anything else, or no answer: due again after the retry schedule's next delay, or later if
 *       the subscriber's {@code Retry-After} asks for more; parked for an operator after the
 *       schedule's last attempt.
 *   <li>a target the {@link WebhookTargets} guard refuses: never sent, parked with the reason.
 * </ul>
 *
 * <p>Subscribers may receive an event's webhooks out of order (each delivery is retried on its own)
 * and, rarely, twice: they order by the CloudEvents {@code aggregatesequence} and deduplicate by
 * {@code webhook-id}. The application schedules {@link #deliverDue()} on its managed executor.
 */
@ApplicationScoped
public class WebhookDispatcher {

  private static final Logger LOG = Logger.getLogger(WebhookDispatcher.class.getName());

  /** Full batches one scheduled run sends at most, so that a run ends. */
  private static final int MAX_ROUNDS = 10;

  @Inject WebhookConfiguration configuration;
  @Inject WebhookDeliveryStore store;

  WebhookTargets.Resolver resolver = WebhookTargets.Resolver.system();
  Clock clock = Clock.systemUTC();

  /** This dispatcher's name on the leases it takes: unique per process. */
  private final String owner = "webhooks-" + UUID.randomUUID();

  private volatile WebhookSender sender;

  /**
   * Sends what is due, a batch at a time, until a batch is not full (or {@value #MAX_ROUNDS}
   * batches).
   *
   * @return how many deliveries were delivered
   */
  @Transactional(Transactional.TxType.NOT_SUPPORTED)
  public int deliverDue() {
    WebhookSettings settings = configuration.settings();
    if (settings.endpoints().isEmpty()) {
      return 0;
    }
    int delivered = 0;
    for (int round = 0; round < MAX_ROUNDS; round++) {
      Round result = deliverOnce(settings);
      delivered += result.delivered();
      if (result.claimed() < settings.batchSize()) {
        break;
      }
    }
    return delivered;
  }

  private record Round(int claimed, int delivered) {}

  private Round deliverOnce(WebhookSettings settings) {
    Map<String, WebhookEndpoint> endpoints = settings.byName();
    List<ClaimedDelivery> batch =
        store.claim(owner, endpoints.keySet(), settings.batchSize(), settings.lease());
    List<ClaimedDelivery> sent = new ArrayList<>(batch.size());
    List<CompletableFuture<AttemptResult>> sends = new ArrayList<>(batch.size());
    for (ClaimedDelivery delivery : batch) {
      WebhookEndpoint endpoint = endpoints.get(delivery.endpoint());
      WebhookTargets.Verdict verdict =
          WebhookTargets.check(endpoint.url(), settings.policy(), resolver);
      switch (verdict.outcome()) {
        case REFUSED -> park(delivery, AttemptResult.refused(verdict.reason()));
        case UNRESOLVED -> {
          sent.add(delivery);
          sends.add(CompletableFuture.completedFuture(AttemptResult.failed(verdict.reason(), 0)));
        }
        case ALLOWED -> {
          sent.add(delivery);
          sends.add(sender(settings).send(endpoint, delivery));
        }
      }
    }
    int delivered = 0;
    for (int i = 0; i < sent.size(); i++) {
      try {
        if (record(settings, sent.get(i), sends.get(i).join())) {
          delivered++;
        }
      } catch (RuntimeException e) {
        // The lease runs out and the delivery is sent again; the others are recorded.
        ClaimedDelivery delivery = sent.get(i);
        LOG.log(Level.WARNING, e, () -> "cannot record the outcome of delivery " + delivery.id());
      }
    }
    return new Round(batch.size(), delivered);
  }

  /** Records how an attempt went; true when the delivery is delivered. */
  private boolean record(WebhookSettings settings, ClaimedDelivery delivery, AttemptResult result) {
    if (result.succeeded()) {
      return store.markDelivered(delivery, owner, result);
    }
    if (result.gone()) {
      store.markGone(
          delivery,
          owner,
          result,
          "HTTP 410 Gone in answer to event "
              + delivery.eventId()
              + " (delivery "
              + delivery.id()
              + ")");
      LOG.warning(
          () ->
              "webhook endpoint '"
                  + delivery.endpoint()
                  + "' answered 410 Gone: it is disabled, and its deliveries wait, until an"
                  + " operator re-enables it");
      return false;
    }
    var next = settings.schedule().after(delivery.attempts());
    if (next.isEmpty()) {
      park(delivery, result);
      return false;
    }
    Duration retryIn = next.get();
    if (result.retryAfter().isPresent() && result.retryAfter().get().compareTo(retryIn) > 0) {
      retryIn = result.retryAfter().get();
    }
    store.markFailed(delivery, owner, result, retryIn);
    return false;
  }

  private void park(ClaimedDelivery delivery, AttemptResult result) {
    store.markParked(delivery, owner, result);
    LOG.warning(
        () ->
            "webhook delivery "
                + delivery.id()
                + " of event "
                + delivery.eventId()
                + " to '"
                + delivery.endpoint()
                + "' parked after "
                + delivery.attempts()
                + " attempt(s): "
                + result.error());
  }

  private WebhookSender sender(WebhookSettings settings) {
    WebhookSender current = sender;
    if (current == null) {
      synchronized (this) {
        if (sender == null) {
          sender = new WebhookSender(settings.connectTimeout(), settings.timeout(), clock);
        }
        current = sender;
      }
    }
    return current;
  }
}
