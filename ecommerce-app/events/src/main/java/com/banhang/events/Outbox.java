package com.banhang.events;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Records events in the caller's transaction. An event recorded here exists if and only if that
 * transaction commits: it is never published for work that rolled back, and never lost for work
 * that committed, however the process ends afterwards. The relay publishes it later ({@link
 * OutboxRelay}).
 *
 * <p>{@code events.outbox.enabled=false} turns recording off, for an installation that consumes no
 * events (no subscriber, no broker): each recorded event is one more insert in the business
 * transaction, and rows that nothing reads. What is lost is every event of the time it is off: it
 * is never written, so turning it on again later replays nothing, and a subscriber added later
 * never learns of that time's orders and payments. Events recorded before it was turned off are
 * still relayed.
 */
@ApplicationScoped
public class Outbox {

  private static final Logger LOG = Logger.getLogger(Outbox.class.getName());

  @Inject OutboxStore store;

  @Inject
  @ConfigProperty(name = "events.outbox.enabled", defaultValue = "true")
  boolean enabled;

  /** Says so in the start-up log when events are off, not only at the first order. */
  void reportAtStartup(@Observes @Initialized(ApplicationScoped.class) Object started) {
    if (!enabled) {
      LOG.warning(
          "events.outbox.enabled=false: no event is recorded from now on, and none of this time"
              + " will ever be published, even after it is turned on again");
    }
  }

  /**
   * Appends {@code event} as the next of its aggregate, or does nothing when {@code
   * events.outbox.enabled} is false. Nothing is returned: no caller needs the id, and with events
   * off there is none.
   *
   * @throws jakarta.transaction.TransactionalException when no transaction is active: an event
   *     written on its own would be as unsafe as publishing it directly
   */
  @Transactional(Transactional.TxType.MANDATORY)
  public void record(NewEvent event) {
    if (enabled) {
      store.append(event);
    }
  }
}
