package com.banhang.events;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

/**
 * Records events in the caller's transaction. An event recorded here exists if and only if that
 * transaction commits: it is never published for work that rolled back, and never lost for work
 * that committed, however the process ends afterwards. The relay publishes it later ({@link
 * OutboxRelay}).
 */
@ApplicationScoped
public class Outbox {

  @Inject OutboxStore store;

  /**
   * Appends {@code event} as the next of its aggregate.
   *
   * @return the event's id, the one every delivery of it carries
   * @throws jakarta.transaction.TransactionalException when no transaction is active: an event
   *     written on its own would be as unsafe as publishing it directly
   */
  @Transactional(Transactional.TxType.MANDATORY)
  public String record(NewEvent event) {
    return store.append(event);
  }
}
