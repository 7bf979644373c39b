package com.banhang.events.webhooks;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * What an operator does about webhooks: see what was parked and why, read a delivery's log, send a
 * parked delivery again, and switch an endpoint off and on. The application exposes these to its
 * operators (and audits them); nothing here checks who calls.
 */
@ApplicationScoped
public class WebhookOperations {

  private static final Logger LOG = Logger.getLogger(WebhookOperations.class.getName());

  @Inject WebhookDeliveryStore store;

  /** Deliveries the dispatcher gave up on, oldest first, at most {@code limit}. */
  public List<WebhookDelivery> parked(int limit) {
    return store.parked(limit);
  }

  /** A delivery's attempts, oldest first: the delivery log. */
  public List<DeliveryAttempt> attempts(String deliveryId) {
    return store.attempts(deliveryId);
  }

  /** A delivery and its attempts. */
  public Optional<DeliveryHistory> delivery(String deliveryId) {
    return store
        .find(deliveryId)
        .map(found -> new DeliveryHistory(found, store.attempts(found.id())));
  }

  /** An event's deliveries, one per endpoint, each with its attempts. */
  public List<DeliveryHistory> deliveriesOf(String eventId) {
    return store.deliveriesOf(eventId).stream()
        .map(found -> new DeliveryHistory(found, store.attempts(found.id())))
        .toList();
  }

  /**
   * Sends a parked delivery again: due now, with the whole retry schedule ahead of it (it waits, as
   * {@link DeliveryStatus#DISABLED}, if its endpoint is disabled).
   *
   * @return false if it is not parked
   */
  public boolean retry(String deliveryId) {
    boolean retried = store.retry(deliveryId);
    if (retried) {
      LOG.info(() -> "parked webhook delivery " + deliveryId + " put back in line");
    }
    return retried;
  }

  /**
   * Stops every send to {@code endpoint}; its deliveries wait as {@link DeliveryStatus#DISABLED}.
   *
   * @return false if it was disabled already
   */
  public boolean disable(String endpoint, String reason) {
    boolean disabled = store.disable(endpoint, reason);
    if (disabled) {
      LOG.warning(() -> "webhook endpoint '" + endpoint + "' disabled by an operator: " + reason);
    }
    return disabled;
  }

  /**
   * Re-enables {@code endpoint} (disabled by a 410 Gone or an operator): its waiting deliveries are
   * due now, each with the whole retry schedule ahead of it.
   *
   * @return false if it was not disabled
   */
  public boolean enable(String endpoint) {
    boolean enabled = store.enable(endpoint);
    if (enabled) {
      LOG.info(() -> "webhook endpoint '" + endpoint + "' re-enabled; its deliveries resume");
    }
    return enabled;
  }

  /** The endpoints nothing is sent to, and why. */
  public List<DisabledEndpoint> disabledEndpoints() {
    return store.disabledEndpoints();
  }
}
