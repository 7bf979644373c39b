package com.banhang.events.webhooks;

import com.banhang.events.sql.EventsDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;

/**
 * Makes the webhook deliveries' store on the outbox's data source ({@link EventsDataSource}), so
 * that the relay's hand-over and the deliveries share a database. The container makes it on first
 * use, and again on the next use if that failed (it keeps no application-scoped instance whose
 * producer threw), so that a database down at start-up does not stop the application from
 * deploying.
 */
@ApplicationScoped
public class WebhookDeliveryStoreProducer {

  @Inject EventsDataSource dataSource;

  @Produces
  @ApplicationScoped
  WebhookDeliveryStore store() {
    return JdbcWebhookDeliveryStore.forDataSource(dataSource.lookup());
  }
}
