package com.banhang.idempotency.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.BeforeAll;

/** The store contract on H2, the embedded default, migrated from sql/h2. */
class H2IdempotencyStoreTest extends JdbcIdempotencyStoreContract {

  private static JdbcDataSource dataSource;

  @BeforeAll
  static void createDatabase() {
    dataSource = new JdbcDataSource();
    dataSource.setURL("jdbc:h2:mem:idempotency-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
    migrate(dataSource, "h2");
  }

  /** H2 bounds a wait for another transaction's row by the session's LOCK_TIMEOUT. */
  @Override
  void boundLockWait(Connection connection, Duration wait) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("SET LOCK_TIMEOUT " + wait.toMillis());
    }
  }

  @Override
  DataSource dataSource() {
    return dataSource;
  }

  @Override
  Class<? extends JdbcIdempotencyStore> expectedStoreClass() {
    return H2IdempotencyStore.class;
  }

  @Override
  protected boolean reportsTableSize() {
    return false;
  }
}
