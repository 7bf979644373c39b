package com.banhang.events.jdbc;

import java.util.UUID;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.BeforeAll;

/** The outbox's store on H2, the embedded default, migrated from sql/h2. */
class H2OutboxStoreTest extends OutboxStoreContract {

  private static JdbcDataSource dataSource;

  @BeforeAll
  static void createDatabase() {
    dataSource = new JdbcDataSource();
    dataSource.setURL("jdbc:h2:mem:outbox-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
    migrate(dataSource, "h2");
  }

  @Override
  DataSource dataSource() {
    return dataSource;
  }
}
