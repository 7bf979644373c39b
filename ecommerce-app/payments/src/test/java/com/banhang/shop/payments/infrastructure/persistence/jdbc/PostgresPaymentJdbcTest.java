package com.banhang.shop.payments.infrastructure.persistence.jdbc;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The statements on PostgreSQL (embedded binaries, no server to install), migrated from
 * sql/postgresql: its trigger refuses UPDATE and DELETE of the timeline.
 */
class PostgresPaymentJdbcTest extends PaymentJdbcContract {

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
  boolean refusesChangesToTheTimeline() {
    return true;
  }
}
