package com.banhang.events.jdbc;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The outbox's store on a real PostgreSQL (embedded binaries, no server to install), migrated from
 * sql/postgresql: the claim is FOR UPDATE SKIP LOCKED, a writer locks its aggregate.
 */
class PostgresOutboxStoreTest extends OutboxStoreContract {

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
