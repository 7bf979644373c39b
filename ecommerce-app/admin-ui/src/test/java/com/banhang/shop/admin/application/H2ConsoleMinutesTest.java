package com.banhang.shop.admin.application;

import java.io.IOException;
import java.util.UUID;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.BeforeAll;

/** {@code console_minute} on H2, the embedded default, created from sql/h2 (MERGE statements). */
class H2ConsoleMinutesTest extends ConsoleMinutesContract {

  private static JdbcDataSource dataSource;

  @BeforeAll
  static void createDatabase() throws IOException {
    dataSource = new JdbcDataSource();
    dataSource.setURL("jdbc:h2:mem:console-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
    migrate(dataSource, "h2");
  }

  @Override
  DataSource dataSource() {
    return dataSource;
  }
}
