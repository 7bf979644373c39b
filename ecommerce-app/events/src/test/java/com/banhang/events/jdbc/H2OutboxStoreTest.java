package com.banhang.events.jdbc;

import com.banhang.events.TestDatabases;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;

/** The outbox's store on H2, the embedded default, migrated from sql/h2. */
class H2OutboxStoreTest extends OutboxStoreContract {

  private static DataSource dataSource;

  @BeforeAll
  static void createDatabase() {
    dataSource = TestDatabases.h2("outbox");
  }

  @Override
  DataSource dataSource() {
    return dataSource;
  }
}
