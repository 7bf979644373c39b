package com.banhang.idempotency.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The store contract on PostgreSQL as production runs it: the key table of V22 with its day
 * partitions created ahead (by V22 itself and by the retention's runs), so that every row lands in
 * its expiry day's partition, lookups go through every partition, and a takeover that changes the
 * expiry moves its row to another one. {@link PostgresIdempotencyStoreTest} runs the same contract
 * before any day partition exists (every row in the default partition).
 */
class PostgresDayPartitionsStoreTest extends JdbcIdempotencyStoreContract {

  private static EmbeddedPostgres postgres;

  @BeforeAll
  static void startPostgres() throws IOException {
    postgres = EmbeddedPostgres.builder().start();
    migrate(postgres.getPostgresDatabase(), "postgresql");
    assertThat(
            new PostgresIdempotencyStore(postgres.getPostgresDatabase())
                .retainByPartitions(10, Duration.ofSeconds(5))
                .partitionsCreated())
        .as("V22 made today and the eight days after it; the run adds days +9 and +10")
        .isEqualTo(2);
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

  /** The batches take the default partition's rows; a day partition's wait for its drop. */
  @Override
  protected boolean batchedPurgeReaches(String key) throws Exception {
    return "idempotency_record_default".equals(partitionOf(key));
  }

  private String partitionOf(String key) throws SQLException {
    try (Connection connection = dataSource().getConnection();
        PreparedStatement select =
            connection.prepareStatement(
                "SELECT tableoid::regclass::text FROM idempotency_record"
                    + " WHERE idempotency_key = ?")) {
      select.setString(1, key);
      try (ResultSet rs = select.executeQuery()) {
        assertThat(rs.next()).isTrue();
        return rs.getString(1);
      }
    }
  }
}
