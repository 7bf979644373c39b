package it.com.banhang.shop.production;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The production-configuration shop on H2 runs as a login with data rights only, as on a database
 * server (docs/deployment.md, "The database"): migrations run as H2's administrator, which creates
 * the runtime user and grants it what the shop's statements need. That login can read and append to
 * the operator audit, and cannot change it, empty it, or change the schema.
 */
class H2RestrictedLoginIT {

  private static final String URL =
      System.getProperty(
          "production.h2.url", "jdbc:h2:file:target/h2/production/shop;AUTO_SERVER=TRUE");

  private static Connection runtimeLogin() throws SQLException {
    return DriverManager.getConnection(URL, "shop_runtime", "it-production-h2-runtime");
  }

  @Test
  void theRuntimeLoginReadsTheShopsTables() throws SQLException {
    try (Connection connection = runtimeLogin();
        Statement statement = connection.createStatement()) {
      statement.executeQuery("SELECT COUNT(*) FROM operator_audit").close();
      statement.executeQuery("SELECT COUNT(*) FROM shop_order").close();
    }
  }

  @Test
  void theRuntimeLoginCannotChangeTheAuditOrTheSchema() throws SQLException {
    List<String> refused =
        List.of(
            "UPDATE operator_audit SET reason = 'rewritten'",
            "DELETE FROM operator_audit",
            "TRUNCATE TABLE operator_audit",
            "DROP TABLE operator_audit",
            "ALTER TABLE operator_audit ADD COLUMN note VARCHAR(10)",
            "UPDATE payment_timeline SET detail = 'rewritten'",
            "DELETE FROM payment_timeline",
            "CREATE TABLE stolen (id INT)",
            "DELETE FROM \"flyway_schema_history\"");
    try (Connection connection = runtimeLogin()) {
      for (String sql : refused) {
        try (Statement statement = connection.createStatement()) {
          assertThatThrownBy(() -> statement.execute(sql))
              .as(sql)
              .isInstanceOf(SQLException.class)
              .satisfies(
                  e ->
                      assertThat(((SQLException) e).getErrorCode())
                          .as("H2's 'not enough rights' (90096) for %s: %s", sql, e.getMessage())
                          .isEqualTo(90096));
        }
      }
    }
  }
}
