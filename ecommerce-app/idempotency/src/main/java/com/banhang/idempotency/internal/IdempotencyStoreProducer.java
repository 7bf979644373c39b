package com.banhang.idempotency.internal;

import com.banhang.idempotency.IdempotencyStoreUnavailableException;
import com.banhang.idempotency.jdbc.JdbcIdempotencyStore;
import com.banhang.idempotency.jdbc.ResponseBodyCipher;
import com.banhang.idempotency.spi.IdempotencyStore;
import com.banhang.idempotency.spi.IdempotencyStoreAdministration;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.transaction.TransactionSynchronizationRegistry;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;

/**
 * Makes the store for the data source named by {@code idempotency.datasource}, and its
 * administration; the dialect comes from the database itself. Both are one JDBC store underneath,
 * made on first use. An application can replace them with {@code @Alternative} producers (of both:
 * the gate uses the store, {@code IdempotencyKeys} both).
 */
@ApplicationScoped
public class IdempotencyStoreProducer {

  @Inject IdempotencySettings settings;

  private volatile JdbcIdempotencyStore store;

  @Produces
  @ApplicationScoped
  IdempotencyStore store() {
    return new LazyIdempotencyStore(this::resolve, IdempotencyStoreProducer::insideJtaTransaction);
  }

  @Produces
  @ApplicationScoped
  IdempotencyStoreAdministration administration() {
    return new LazyIdempotencyStore.Administration(() -> resolve().administration());
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

  /** Whether the calling thread runs inside a JTA transaction; false where there is no JTA. */
  private static boolean insideJtaTransaction() {
    try {
      TransactionSynchronizationRegistry transactions =
          (TransactionSynchronizationRegistry)
              new InitialContext().lookup("java:comp/TransactionSynchronizationRegistry");
      return transactions.getTransactionKey() != null;
    } catch (NamingException | ClassCastException e) {
      return false;
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
