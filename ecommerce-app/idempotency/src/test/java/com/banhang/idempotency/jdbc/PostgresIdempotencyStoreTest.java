package com.banhang.idempotency.jdbc;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The store contract on PostgreSQL (embedded binaries, no server to install), migrated from
 * sql/postgresql: the claim is the database function idempotency_claim. The day partitions that V22
 * makes are dropped, so that every row lands in the default partition, as on a table whose days are
 * not made (a retention job that has not run for days): the batched purge's own path. {@link
 * PostgresDayPartitionsStoreTest} runs the same contract with the days made.
 */
class PostgresIdempotencyStoreTest extends JdbcIdempotencyStoreContract {

  private static EmbeddedPostgres postgres;

  @BeforeAll
  static void startPostgres() throws IOException, SQLException {
    postgres = EmbeddedPostgres.builder().start();
    migrate(postgres.getPostgresDatabase(), "postgresql");
    try (Connection connection = postgres.getPostgresDatabase().getConnection();
        Statement statement = connection.createStatement()) {
      statement.execute(
          "DO $$ DECLARE v_day name; BEGIN"
              + " FOR v_day IN SELECT partition_name FROM idempotency_partitions()"
              + " WHERE NOT is_default LOOP EXECUTE format('DROP TABLE %I', v_day); END LOOP;"
              + " END $$");
    }
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
