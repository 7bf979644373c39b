package it.com.banhang.shop.sqlserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.banhang.idempotency.jdbc.SqlServerIdempotencyStore;
import com.microsoft.sqlserver.jdbc.SQLServerDataSource;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The SQL Server that SQLSERVER_JDBC_URL names, read directly by the checks of this module
 * (docs/sqlserver.md says which permissions they need).
 */
final class SqlServer {

  static final String SKIPPED =
      "no SQL Server on this machine: set SQLSERVER_JDBC_URL, SQLSERVER_USER and"
          + " SQLSERVER_PASSWORD to run the integration suite against one";

  /** The fingerprint of every claim these checks make themselves. */
  static final String HASH = "a".repeat(64);

  private SqlServer() {}

  static Connection connect() throws SQLException {
    return DriverManager.getConnection(
        System.getenv("SQLSERVER_JDBC_URL"),
        System.getenv("SQLSERVER_USER"),
        System.getenv("SQLSERVER_PASSWORD"));
  }

  /** The library's SQL Server store over this database, as the shop makes it. */
  static SqlServerIdempotencyStore store() {
    SQLServerDataSource dataSource = new SQLServerDataSource();
    dataSource.setURL(System.getenv("SQLSERVER_JDBC_URL"));
    dataSource.setUser(System.getenv("SQLSERVER_USER"));
    dataSource.setPassword(System.getenv("SQLSERVER_PASSWORD"));
    return new SqlServerIdempotencyStore(dataSource);
  }

  static long number(String sql, Object... parameters) throws SQLException {
    try (Connection connection = connect();
        PreparedStatement statement = prepare(connection, sql, parameters);
        ResultSet rs = statement.executeQuery()) {
      if (!rs.next()) {
        throw new AssertionError("no row from " + sql);
      }
      return rs.getLong(1);
    }
  }

  /** Rows as arrays of column values. */
  static List<Object[]> rows(String sql, Object... parameters) throws SQLException {
    try (Connection connection = connect();
        PreparedStatement statement = prepare(connection, sql, parameters);
        ResultSet rs = statement.executeQuery()) {
      List<Object[]> rows = new ArrayList<>();
      int columns = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        Object[] row = new Object[columns];
        for (int i = 0; i < columns; i++) {
          row[i] = rs.getObject(i + 1);
        }
        rows.add(row);
      }
      return rows;
    }
  }

  private static PreparedStatement prepare(Connection connection, String sql, Object... parameters)
      throws SQLException {
    PreparedStatement statement = connection.prepareStatement(sql);
    for (int i = 0; i < parameters.length; i++) {
      statement.setObject(i + 1, parameters[i]);
    }
    return statement;
  }

  /**
   * Executions of the two claim procedures in this database, over every cached plan of them: the
   * claim committed on its own (V5) and the claim inside the operation's transaction (V8).
   */
  static long claimProcedureExecutions() throws SQLException {
    return number(
        "SELECT COALESCE(SUM(execution_count), 0) FROM sys.dm_exec_procedure_stats"
            + " WHERE database_id = DB_ID() AND object_id IN"
            + " (OBJECT_ID('dbo.usp_idempotency_claim'),"
            + " OBJECT_ID('dbo.usp_idempotency_claim_in_transaction'))");
  }

  /**
   * Deadlocks on the whole instance since it started: the "Number of Deadlocks/sec" counter of the
   * Locks object is cumulative in the view, and per second only once two samples are divided.
   */
  static long deadlocks() throws SQLException {
    return number(
        "SELECT cntr_value FROM sys.dm_os_performance_counters"
            + " WHERE object_name LIKE '%:Locks%' AND RTRIM(counter_name) = 'Number of Deadlocks/sec'"
            + " AND RTRIM(instance_name) = '_Total'");
  }

  /** {@code dbo.usp_idempotency_claim_in_transaction} (V10), wait in ms: whether it won. */
  static boolean claimInTransaction(
      Connection connection, String tenant, String operation, String key, int waitMs)
      throws SQLException {
    try (CallableStatement call =
        connection.prepareCall(
            "{call dbo.usp_idempotency_claim_in_transaction(?, ?, ?, ?, ?, ?, ?, ?)}")) {
      call.setString(1, tenant);
      call.setString(2, operation);
      call.setString(3, key);
      call.setString(4, HASH);
      call.setLong(5, 60_000);
      call.setLong(6, 3_600);
      call.setBoolean(7, true);
      call.setInt(8, waitMs);
      try (ResultSet rs = call.executeQuery()) {
        assertThat(rs.next()).isTrue();
        return rs.getBoolean(1);
      }
    }
  }

  /** {@code dbo.usp_idempotency_claim}: whether it won. */
  static boolean claim(Connection connection, String tenant, String operation, String key)
      throws SQLException {
    try (CallableStatement call =
        connection.prepareCall("{call dbo.usp_idempotency_claim(?, ?, ?, ?, ?, ?, ?)}")) {
      call.setString(1, tenant);
      call.setString(2, operation);
      call.setString(3, key);
      call.setString(4, HASH);
      call.setLong(5, 60_000);
      call.setLong(6, 3_600);
      call.setBoolean(7, false);
      try (ResultSet rs = call.executeQuery()) {
        assertThat(rs.next()).isTrue();
        return rs.getBoolean(1);
      }
    }
  }
}
