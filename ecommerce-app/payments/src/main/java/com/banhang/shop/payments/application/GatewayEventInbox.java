package com.banhang.shop.payments.application;

import com.banhang.shop.payments.api.GatewayEventView.Status;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;

/**
 * Keeps each verified webhook event of the processor once, keyed by (provider, event id), and has
 * it processed after (docs/payments.md, "Webhooks in"). What the endpoint does after the signature
 * checked out; nothing here changes a payment. A body the shop cannot process (not JSON, an event
 * type it does not know) is kept parked, so that an operator sees it and may retry it once the shop
 * knows better; it is never applied.
 */
@ApplicationScoped
public class GatewayEventInbox {

  /** What became of a delivery. */
  public enum Received {
    /** The first delivery of the event: kept, and processed soon. */
    NEW,
    /** The event was kept before: one more delivery counted, nothing else. */
    DUPLICATE,
    /** Kept, but parked: the shop cannot process its body. */
    PARKED
  }

  @Inject GatewayEventStore store;
  @Inject GatewayEventProcessor processor;

  Clock clock = Clock.systemUTC();

  /**
   * Keeps a delivery whose signature was verified.
   *
   * @param provider the processor that sent it
   * @param webhookId the delivery's {@code webhook-id}: the event's id
   * @param verification how its signature was verified, in words for the operator
   * @param payload its body
   */
  public Received receive(String provider, String webhookId, String verification, String payload) {
    String type;
    String chargeId = null;
    String gatewayKey = null;
    Status status;
    String detail;
    try {
      ChargeEvent event = ChargeEvent.read(payload, webhookId);
      type = event.type();
      chargeId = event.charge().chargeId();
      gatewayKey = event.charge().gatewayKey();
      status = Status.PENDING;
      detail = null;
    } catch (UnreadableChargeEventException e) {
      type = ChargeEvent.typeOf(payload);
      status = Status.PARKED;
      detail = e.getMessage();
    }
    boolean isNew =
        store.receive(
            new GatewayEventStore.Received(
                provider,
                webhookId,
                type,
                chargeId,
                gatewayKey,
                payload,
                verification,
                status,
                detail,
                clock.instant()));
    if (!isNew) {
      processor.count("duplicate");
      return Received.DUPLICATE;
    }
    processor.count("received");
    if (status == Status.PARKED) {
      processor.count("parked");
      return Received.PARKED;
    }
    processor.processSoon(provider, webhookId);
    return Received.NEW;
  }
}
