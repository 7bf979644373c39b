package it.com.banhang.shop;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Direct reads of the database behind the running server: the ground truth for "exactly one order"
 * that HTTP answers alone cannot prove.
 */
public final class ShopDatabase {

  private ShopDatabase() {}

  /** The response body as the database holds it, encrypted or not. */
  public static byte[] storedBody(String tenant, String operation, String key) {
    try (Connection connection = connect();
        PreparedStatement statement =
            connection.prepareStatement(
                "SELECT response_body FROM idempotency_record"
                    + " WHERE tenant_id = ? AND operation = ? AND idempotency_key = ?")) {
      statement.setString(1, tenant);
      statement.setString(2, operation);
      statement.setString(3, key);
      try (ResultSet rs = statement.executeQuery()) {
        rs.next();
        return rs.getBytes(1);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read the shop's database", e);
    }
  }

  public static long count(String sql, Object... parameters) {
    try (Connection connection = connect();
        PreparedStatement statement = connection.prepareStatement(sql)) {
      for (int i = 0; i < parameters.length; i++) {
        statement.setObject(i + 1, parameters[i]);
      }
      try (ResultSet rs = statement.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read the shop's database", e);
    }
  }

  /** The first {@code columns} columns of the statement's single row, as numbers. */
  public static long[] counts(String sql, int columns) {
    try (Connection connection = connect();
        PreparedStatement statement = connection.prepareStatement(sql);
        ResultSet rs = statement.executeQuery()) {
      rs.next();
      long[] counts = new long[columns];
      for (int i = 0; i < columns; i++) {
        counts[i] = rs.getLong(i + 1);
      }
      return counts;
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read the shop's database", e);
    }
  }

  /** The first column of the first row, as text; null when there is no row. */
  public static String text(String sql, Object... parameters) {
    try (Connection connection = connect();
        PreparedStatement statement = connection.prepareStatement(sql)) {
      for (int i = 0; i < parameters.length; i++) {
        statement.setObject(i + 1, parameters[i]);
      }
      try (ResultSet rs = statement.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read the shop's database", e);
    }
  }

  /** The first column of every row, as text. */
  public static java.util.List<String> texts(String sql, Object... parameters) {
    try (Connection connection = connect();
        PreparedStatement statement = connection.prepareStatement(sql)) {
      for (int i = 0; i < parameters.length; i++) {
        statement.setObject(i + 1, parameters[i]);
      }
      java.util.List<String> texts = new java.util.ArrayList<>();
      try (ResultSet rs = statement.executeQuery()) {
        while (rs.next()) {
          texts.add(rs.getString(1));
        }
      }
      return texts;
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read the shop's database", e);
    }
  }

  public static long ordersWithSku(String sku) {
    return count("SELECT COUNT(*) FROM order_line WHERE sku = ?", sku);
  }

  /** Claims that hold the key (processing or completed); a released key only leaves a tombstone. */
  public static long heldKeys(String tenant, String operation, String key) {
    return count(
        "SELECT COUNT(*) FROM idempotency_record"
            + " WHERE tenant_id = ? AND operation = ? AND idempotency_key = ?"
            + " AND status <> 'RELEASED'",
        tenant,
        operation,
        key);
  }

  /** Every row of the key, whatever its status (a released tombstone counts). */
  public static long rows(String tenant, String operation, String key) {
    return count(
        "SELECT COUNT(*) FROM idempotency_record"
            + " WHERE tenant_id = ? AND operation = ? AND idempotency_key = ?",
        tenant,
        operation,
        key);
  }

  /** Moves the key's expiry to {@code in} from now; returns it, to the second. */
  public static java.time.Instant expireIn(
      String tenant, String operation, String key, java.time.Duration in) {
    java.time.OffsetDateTime expiresAt =
        java.time.OffsetDateTime.now(java.time.ZoneOffset.UTC)
            .plus(in)
            .truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
    int changed =
        update(
            "UPDATE idempotency_record SET expires_at = ?"
                + " WHERE tenant_id = ? AND operation = ? AND idempotency_key = ?",
            expiresAt,
            tenant,
            operation,
            key);
    if (changed != 1) {
      throw new IllegalStateException("no key " + key + " to move");
    }
    return expiresAt.toInstant();
  }

  /** Runs one INSERT, UPDATE or DELETE; returns the rows it changed. */
  public static int update(String sql, Object... parameters) {
    try (Connection connection = connect();
        PreparedStatement statement = connection.prepareStatement(sql)) {
      for (int i = 0; i < parameters.length; i++) {
        statement.setObject(i + 1, parameters[i]);
      }
      return statement.executeUpdate();
    } catch (SQLException e) {
      throw new IllegalStateException("cannot write the shop's database: " + e.getMessage(), e);
    }
  }

  /** Makes a key look claimed {@code age} ago, as if its request were that old. */
  public static void age(String tenant, String operation, String key, java.time.Duration age) {
    int changed =
        update(
            "UPDATE idempotency_record SET created_at = ?"
                + " WHERE tenant_id = ? AND operation = ? AND idempotency_key = ?",
            java.time.OffsetDateTime.now(java.time.ZoneOffset.UTC).minus(age),
            tenant,
            operation,
            key);
    if (changed != 1) {
      throw new IllegalStateException("no key " + key + " to age");
    }
  }

  /** A connection to the database of the server under test, as the build configured it. */
  public static boolean isPostgreSql() {
    try (Connection connection = connect()) {
      return "PostgreSQL".equals(connection.getMetaData().getDatabaseProductName());
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read the shop's database", e);
    }
  }

  /**
   * PostgreSQL: the transaction ({@code xmin}) and the command within it ({@code cmin}) that wrote
   * the one row {@code sql} selects as two text columns.
   */
  public static long[] writtenBy(String sql, Object... parameters) {
    try (Connection connection = connect();
        PreparedStatement statement = connection.prepareStatement(sql)) {
      for (int i = 0; i < parameters.length; i++) {
        statement.setObject(i + 1, parameters[i]);
      }
      try (ResultSet rs = statement.executeQuery()) {
        if (!rs.next()) {
          throw new IllegalStateException("no row for " + sql);
        }
        return new long[] {Long.parseLong(rs.getString(1)), Long.parseLong(rs.getString(2))};
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read the shop's database", e);
    }
  }

  public static Connection connect() throws SQLException {
    return DriverManager.getConnection(
        System.getProperty("shop.jdbc.url"),
        System.getProperty("shop.jdbc.user"),
        System.getProperty("shop.jdbc.password", ""));
  }
}
