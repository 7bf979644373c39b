package it.com.banhang.shop.postgresql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import it.com.banhang.shop.ShopApi;
import it.com.banhang.shop.ShopDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The audit is append-only for the database itself, not only for the application: the shop runs as
 * a login of its own (shop.postgresql.user) that has the data rights it needs and no more, while
 * migrations run as the schema owner (docs/deployment.md). The shop works; that login cannot
 * rewrite, delete or truncate the audit, nor change the schema.
 */
class RestrictedDatabaseLoginIT {

  private static final String URL = System.getProperty("shop.jdbc.url");
  private static final String RUNTIME_USER = System.getProperty("shop.runtime.user", "postgres");
  private static final String RUNTIME_PASSWORD =
      System.getProperty("shop.runtime.password", "postgres");

  /** PostgreSQL's SQLSTATE for "permission denied" (insufficient_privilege). */
  private static final String PERMISSION_DENIED = "42501";

  @Test
  void theShopRunsAsTheRuntimeLogin_andItWritesTheAudit() throws SQLException {
    String key = ShopApi.newKey();
    assertThat(
            ShopApi.createOrder("alice", key, ShopApi.orderBody(ShopApi.newSku(), 1, 10_000))
                .statusCode())
        .isEqualTo(201);
    long audited = ShopDatabase.count("SELECT COUNT(*) FROM operator_audit");
    assertThat(ShopApi.purgeNow().statusCode()).isEqualTo(200);
    assertThat(ShopDatabase.count("SELECT COUNT(*) FROM operator_audit")).isGreaterThan(audited);
    assertThat(
            ShopDatabase.count(
                "SELECT COUNT(*) FROM pg_stat_activity WHERE usename = ?", RUNTIME_USER))
        .as("the shop's connections are the runtime login's")
        .isPositive();
    assertThat(RUNTIME_USER).isNotEqualTo("postgres");
  }

  @Test
  void theRuntimeLogin_cannotChangeTheAuditOrTheSchema() throws SQLException {
    try (Connection runtime = DriverManager.getConnection(URL, RUNTIME_USER, RUNTIME_PASSWORD)) {
      // It may append and read: what the shop does.
      try (Statement statement = runtime.createStatement()) {
        statement.executeUpdate(
            "INSERT INTO operator_audit (occurred_at, operator_name, action, result)"
                + " VALUES (CURRENT_TIMESTAMP, 'restricted-login-it', 'PURGE', 'DONE')");
      }
      for (String refused :
          List.of(
              "UPDATE operator_audit SET reason = 'rewritten'",
              "DELETE FROM operator_audit",
              "TRUNCATE operator_audit",
              "ALTER TABLE operator_audit DISABLE TRIGGER ALL",
              "UPDATE payment_timeline SET detail = 'rewritten'",
              "DELETE FROM payment_timeline",
              "TRUNCATE payment_timeline",
              "DROP TABLE operator_audit",
              "CREATE TABLE shadow_audit (id bigint)",
              "ALTER TABLE payment ADD COLUMN sneaky int",
              "DELETE FROM flyway_schema_history")) {
        assertThatThrownBy(() -> execute(runtime, refused))
            .as(refused)
            .isInstanceOfSatisfying(
                SQLException.class,
                e -> assertThat(e.getSQLState()).as(refused).isEqualTo(PERMISSION_DENIED));
      }
    }
    assertThat(
            ShopDatabase.count(
                "SELECT COUNT(*) FROM operator_audit WHERE operator_name = 'restricted-login-it'"))
        .isPositive();
  }

  private static void execute(Connection connection, String sql) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }
}
