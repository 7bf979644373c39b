package com.banhang.idempotency.internal;

import com.banhang.idempotency.IdempotencyStoreUnavailableException;
import com.banhang.idempotency.jdbc.JdbcIdempotencyStore;
import com.banhang.idempotency.jdbc.ResponseBodyCipher;
import com.banhang.idempotency.spi.IdempotencyStore;
import com.banhang.idempotency.spi.IdempotencyStoreAdministration;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;

/**
 * Makes the store for the data source named by {@code idempotency.datasource}, and its
 * administration; the dialect comes from the database itself. Both are one JDBC store underneath.
 *
 * <p>Both are made on first use rather than at start-up: the container calls these producers when a
 * request first reaches the store through its application-scoped proxy, and calls them again on the
 * next use if they failed. So a database that is down when the server starts makes requests fail
 * closed (503) instead of the application failing to deploy, and once it is up nothing stands
 * between a request and the JDBC store. An application can replace them with {@code @Alternative}
 * producers (of both: the gate uses the store, {@code IdempotencyKeys} both).
 */
@ApplicationScoped
public class IdempotencyStoreProducer {

  @Inject IdempotencySettings settings;

  private volatile JdbcIdempotencyStore store;

  @Produces
  @ApplicationScoped
  IdempotencyStore store() {
    return resolve();
  }

  @Produces
  @ApplicationScoped
  IdempotencyStoreAdministration administration() {
    return resolve().administration();
  }

  private JdbcIdempotencyStore resolve() {
    JdbcIdempotencyStore current = store;
    if (current == null) {
      synchronized (this) {
        if (store == null) {
          store =
              JdbcIdempotencyStore.forDataSource(lookup(settings.dataSourceName()))
                  .encryptingBodiesWith(cipher())
                  .boundingStatementsBy(settings.storeStatementTimeout());
        }
        current = store;
      }
    }
    return current;
  }

  /** A keyring configured wrongly leaves the store unusable: fail closed with 503. */
  private ResponseBodyCipher cipher() {
    try {
      return settings.bodyCipher();
    } catch (IllegalArgumentException e) {
      throw new IdempotencyStoreUnavailableException(
          "the body encryption keys are configured wrongly: " + e.getMessage(), e);
    }
  }

  /** A missing data source is an unavailable store: requests fail closed with 503. */
  private static DataSource lookup(String name) {
    try {
      return (DataSource) new InitialContext().lookup(name);
    } catch (NamingException | ClassCastException e) {
      throw new IdempotencyStoreUnavailableException("no data source " + name, e);
    }
  }
}
