package com.banhang.events.webhooks;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Makes the webhook deliveries' store on the outbox's data source ({@code events.datasource},
 * default {@code jdbc/events}), so that the relay's hand-over and the deliveries share a database.
 * Made on first use, and again on the next use if that failed, so that a database down at start-up
 * does not stop the application from deploying.
 */
@ApplicationScoped
public class WebhookDeliveryStoreProducer {

  @Inject
  @ConfigProperty(name = "events.datasource", defaultValue = "jdbc/events")
  String dataSourceName;

  private volatile JdbcWebhookDeliveryStore store;

  @Produces
  @ApplicationScoped
  WebhookDeliveryStore store() {
    JdbcWebhookDeliveryStore current = store;
    if (current == null) {
      synchronized (this) {
        if (store == null) {
          store = JdbcWebhookDeliveryStore.forDataSource(lookup(dataSourceName));
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
      throw new IllegalStateException("no data source " + name + " for the webhook deliveries", e);
    }
  }
}
