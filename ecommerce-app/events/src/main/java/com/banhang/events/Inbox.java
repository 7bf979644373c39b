package com.banhang.events;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

/**
 * Lets a consumer handle each event once, whatever how often it is delivered: the event's (source,
 * id) is written to the inbox in the consumer's own transaction, with the handler's writes, so that
 * a second delivery finds it and does nothing, and a handler that fails rolls the inbox row back
 * with its own work and runs again on the next delivery.
 */
@ApplicationScoped
public class Inbox {

  @Inject OutboxStore store;

  /**
   * Runs {@code handler} unless the event was handled before, both in the caller's transaction.
   *
   * @param source the event's producer (its CloudEvents {@code source}): ids are unique per source
   * @param eventId the event's id
   * @return true if the handler ran; false for a duplicate
   */
  @Transactional(Transactional.TxType.MANDATORY)
  public boolean once(String source, String eventId, Runnable handler) {
    if (!store.receive(source, eventId)) {
      return false;
    }
    handler.run();
    return true;
  }
}
