package com.banhang.shop.admin.application;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * {@code console_minute} on PostgreSQL (embedded binaries, no server to install), created from
 * sql/postgresql (INSERT ... ON CONFLICT DO UPDATE statements).
 */
class PostgresConsoleMinutesTest extends ConsoleMinutesContract {

  private static EmbeddedPostgres postgres;

  @BeforeAll
  static void startPostgres() throws IOException {
    postgres = EmbeddedPostgres.builder().start();
    migrate(postgres.getPostgresDatabase(), "postgresql");
  }

  @AfterAll
  static void stopPostgres() throws IOException {
    if (postgres != null) {
      postgres.close();
    }
  }

  @Override
  DataSource dataSource() {
    return postgres.getPostgresDatabase();
  }
}
