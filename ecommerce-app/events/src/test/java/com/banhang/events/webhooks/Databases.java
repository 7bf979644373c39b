package com.banhang.events.webhooks;

import com.banhang.events.TestDatabases;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/** The webhook tests' databases ({@link TestDatabases}) and how to empty their tables. */
final class Databases {

  private Databases() {}

  /** A fresh in-memory H2, migrated. */
  static DataSource h2() {
    return TestDatabases.h2("webhooks");
  }

  /** Empties the webhook tables and the inbox. */
  static void empty(DataSource dataSource) throws SQLException {
    try (Connection connection = dataSource.getConnection();
        Statement statement = connection.createStatement()) {
      statement.executeUpdate("DELETE FROM webhook_delivery_attempt");
      statement.executeUpdate("DELETE FROM webhook_delivery");
      statement.executeUpdate("DELETE FROM webhook_endpoint_state");
      statement.executeUpdate("DELETE FROM inbox_event");
    }
  }
}
