package com.banhang.events.jdbc;

import com.banhang.events.OutboxStore;
import com.banhang.events.sql.EventsDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;

/**
 * Makes the JDBC store on the {@link EventsDataSource}; the dialect comes from the database. The
 * container makes it on first use, and again on the next use if that failed (it keeps no
 * application-scoped instance whose producer threw), so that a database down at start-up does not
 * stop the application from deploying.
 */
@ApplicationScoped
public class OutboxStoreProducer {

  @Inject EventsDataSource dataSource;

  @Produces
  @ApplicationScoped
  OutboxStore store() {
    return JdbcOutboxStore.forDataSource(dataSource.lookup());
  }
}
