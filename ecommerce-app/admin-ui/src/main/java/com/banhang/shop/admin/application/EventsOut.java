package com.banhang.shop.admin.application;

import com.banhang.events.OutboxRelay;
import com.banhang.events.OutboxStore;
import com.banhang.events.webhooks.DeliveryHistory;
import com.banhang.events.webhooks.DisabledEndpoint;
import com.banhang.events.webhooks.WebhookDelivery;
import com.banhang.events.webhooks.WebhookOperations;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;

/**
 * What an operator sees and does about the shop's events out (docs/events.md, "When an event cannot
 * be delivered"): events the relay parked, webhook deliveries parked after the last retry,
 * endpoints a subscriber disabled with 410 Gone, and the way to put each back in line. Reads and
 * actions are audited under the operator's name; nothing here changes an event or a delivery's
 * body.
 */
@ApplicationScoped
public class EventsOut {

  @Inject OutboxRelay relay;
  @Inject WebhookOperations webhooks;
  @Inject AuditLog audit;

  /** What waits for an operator, in one read. */
  public record Parked(
      List<OutboxStore.ParkedEvent> events,
      List<WebhookDelivery> deliveries,
      List<DisabledEndpoint> disabledEndpoints) {}

  public Parked parked(String operator, int limit) {
    Parked parked =
        new Parked(relay.parked(limit), webhooks.parked(limit), webhooks.disabledEndpoints());
    audit.append(
        operator,
        OperatorActions.READ_EVENTS_OUT,
        null,
        null,
        ActionResult.done(
            "read "
                + parked.events().size()
                + " parked events, "
                + parked.deliveries().size()
                + " parked webhook deliveries and "
                + parked.disabledEndpoints().size()
                + " disabled endpoints"));
    return parked;
  }

  /** Every webhook delivery of one event, each with its attempts. */
  public List<DeliveryHistory> deliveriesOf(String operator, String eventId) {
    List<DeliveryHistory> deliveries = webhooks.deliveriesOf(eventId);
    audit.append(
        operator,
        OperatorActions.READ_EVENTS_OUT,
        null,
        null,
        ActionResult.done("read " + deliveries.size() + " deliveries of event " + eventId));
    return deliveries;
  }

  /** Puts a parked event back in line for the relay, due now. */
  public ActionResult retryEvent(String operator, String eventId) {
    return audited(
        operator,
        OperatorActions.RETRY_EVENT,
        relay.retry(eventId)
            ? ActionResult.done("event " + eventId + " is due again")
            : ActionResult.refused("event " + eventId + " is not parked"));
  }

  /** Sends a parked webhook delivery again, due now, with its attempts counted afresh. */
  public ActionResult retryDelivery(String operator, String deliveryId) {
    return audited(
        operator,
        OperatorActions.RETRY_WEBHOOK,
        webhooks.retry(deliveryId)
            ? ActionResult.done("webhook delivery " + deliveryId + " is due again")
            : ActionResult.refused("webhook delivery " + deliveryId + " is not parked"));
  }

  /** Lets an endpoint that answered 410 Gone receive again; its waiting deliveries resume. */
  public ActionResult enableEndpoint(String operator, String endpoint) {
    return audited(
        operator,
        OperatorActions.ENABLE_WEBHOOK_ENDPOINT,
        webhooks.enable(endpoint)
            ? ActionResult.done("webhook endpoint " + endpoint + " receives again")
            : ActionResult.refused("webhook endpoint " + endpoint + " is not disabled"));
  }

  private ActionResult audited(String operator, String action, ActionResult result) {
    audit.append(operator, action, null, null, result);
    return result;
  }
}
