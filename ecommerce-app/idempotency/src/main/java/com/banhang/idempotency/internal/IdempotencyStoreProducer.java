package com.banhang.idempotency.internal;

import com.banhang.idempotency.persistence.IdempotencyStore;
import com.banhang.idempotency.persistence.JdbcIdempotencyStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;

/**
 * Makes the store for the data source named by {@code idempotency.datasource}; the dialect comes
 * from the database itself. An application can replace it with an {@code @Alternative} producer.
 */
@ApplicationScoped
public class IdempotencyStoreProducer {

  @Inject IdempotencySettings settings;

  private volatile IdempotencyStore store;

  @Produces
  @ApplicationScoped
  IdempotencyStore store() {
    return new LazyIdempotencyStore(this::resolve);
  }

  private IdempotencyStore resolve() {
    IdempotencyStore current = store;
    if (current == null) {
      synchronized (this) {
        if (store == null) {
          store = JdbcIdempotencyStore.forDataSource(lookup(settings.dataSourceName()));
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
      throw new IllegalStateException("no data source " + name + " for idempotency keys", e);
    }
  }
}
