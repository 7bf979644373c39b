package com.banhang.idempotency.internal;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The shared new-key limit on PostgreSQL (embedded binaries, no server to install), migrated from
 * sql/postgresql: Bucket4j's PostgreSQL module.
 */
class PostgresSharedNewKeyLimitsTest extends SharedNewKeyLimitsContract {

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
