package com.banhang.idempotency.jdbc;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The store contract on PostgreSQL (embedded binaries, no server to install), migrated from
 * sql/postgresql: the claim is the database function idempotency_claim.
 */
class PostgresIdempotencyStoreTest extends JdbcIdempotencyStoreContract {

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

  @Override
  Class<? extends JdbcIdempotencyStore> expectedStoreClass() {
    return PostgresIdempotencyStore.class;
  }

  @Override
  protected boolean reportsTableSize() {
    return true;
  }
}
