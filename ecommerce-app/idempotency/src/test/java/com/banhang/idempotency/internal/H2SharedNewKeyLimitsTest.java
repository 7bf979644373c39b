package com.banhang.idempotency.internal;

import java.util.UUID;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.BeforeAll;

/** The shared new-key limit on H2, migrated from sql/h2. */
class H2SharedNewKeyLimitsTest extends SharedNewKeyLimitsContract {

  private static JdbcDataSource dataSource;

  @BeforeAll
  static void createDatabase() {
    dataSource = new JdbcDataSource();
    // Twelve threads wait for one bucket's row: longer than H2's default lock timeout of a second.
    dataSource.setURL(
        "jdbc:h2:mem:limits-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000");
    migrate(dataSource, "h2");
  }

  @Override
  DataSource dataSource() {
    return dataSource;
  }
}
