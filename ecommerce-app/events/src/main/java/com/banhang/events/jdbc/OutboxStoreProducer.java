package com.banhang.events.jdbc;

import com.banhang.events.OutboxStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Makes the JDBC store for the data source named by {@code events.datasource} (default {@code
 * jdbc/events}); the dialect comes from the database. Made on first use, and again on the next use
 * if that failed, so that a database down at start-up does not stop the application from deploying.
 */
@ApplicationScoped
public class OutboxStoreProducer {

  @Inject
  @ConfigProperty(name = "events.datasource", defaultValue = "jdbc/events")
  String dataSourceName;

  private volatile JdbcOutboxStore store;

  @Produces
  @ApplicationScoped
  OutboxStore store() {
    JdbcOutboxStore current = store;
    if (current == null) {
      synchronized (this) {
        if (store == null) {
          store = JdbcOutboxStore.forDataSource(lookup(dataSourceName));
        }
        current = store;
      }
    }
    return current;
  }

  private static DataSource lookup(String name) {
    try {
      return (DataSource) new InitialContext().lookup(name);
    } catch (NamingException e) {
      throw new IllegalStateException("no data source " + name + " for the outbox", e);
    }
  }
}
