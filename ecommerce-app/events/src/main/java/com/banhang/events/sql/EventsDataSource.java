package com.banhang.events.sql;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The data source of the outbox, the inbox and the webhook deliveries, named in JNDI by {@code
 * events.datasource} (default {@code jdbc/events}): one name for every store, so that the relay's
 * hand-over and the deliveries share a database.
 */
@ApplicationScoped
public class EventsDataSource {

  @Inject
  @ConfigProperty(name = "events.datasource", defaultValue = "jdbc/events")
  String name;

  /** Looks the data source up; fails if nothing is bound under its name. */
  public DataSource lookup() {
    try {
      return (DataSource) new InitialContext().lookup(name);
    } catch (NamingException e) {
      throw new IllegalStateException(
          "no data source " + name + " (events.datasource) for the outbox and the webhooks", e);
    }
  }
}
