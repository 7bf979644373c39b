package com.banhang.shop.payments.application;

import com.banhang.shop.payments.api.GatewayEventView.Status;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The processing of one received event, in one transaction: the event's row is taken (locked, so
 * that another node or the schedule waits and then finds it done), the payment decided, and the
 * event's outcome written, all committed together or not at all. The processor's answer is in the
 * event's body: the gateway is never called here.
 */
@ApplicationScoped
public class GatewayEventStep {

  @Inject GatewayEventStore store;
  @Inject ChargeEventSettlement settlement;

  /**
   * Processes the event if it is pending and due at {@code now}.
   *
   * @param wait how long an event waits for a payment's own request still running
   * @return what was decided, or empty when there was nothing to do
   */
  @Transactional(Transactional.TxType.REQUIRES_NEW)
  public Optional<ChargeEventSettlement.Decision> process(
      GatewayEventStore.Key key, Instant now, Duration wait) {
    Optional<GatewayEventStore.Taken> taken = store.take(key.provider(), key.eventId(), now);
    if (taken.isEmpty()) {
      return Optional.empty();
    }
    ChargeEvent event;
    try {
      event = ChargeEvent.read(taken.get().payload(), key.eventId());
    } catch (UnreadableChargeEventException e) {
      store.finish(key, Status.PARKED, e.getMessage(), null, now);
      return Optional.of(
          new ChargeEventSettlement.Decision(Status.PARKED, e.getMessage(), null, false));
    }
    ChargeEventSettlement.Decision decision = settlement.decide(event);
    if (decision.waits()) {
      store.later(key, now.plus(wait), decision.detail(), decision.paymentId());
    } else {
      store.finish(key, decision.status(), decision.detail(), decision.paymentId(), now);
    }
    return Optional.of(decision);
  }
}
