package com.banhang.idempotency.persistence;

import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import javax.sql.DataSource;

/**
 * SQL Server: the claim is the stored procedure {@code dbo.usp_idempotency_claim} (sql/sqlserver),
 * which reads the key {@code WITH (UPDLOCK, HOLDLOCK)} and inserts it in its own short transaction,
 * so a concurrent caller queues at that read instead of failing on the primary key.
 */
public class SqlServerIdempotencyStore extends JdbcIdempotencyStore {

  public SqlServerIdempotencyStore(DataSource dataSource) {
    super(dataSource);
  }

  @Override
  public ClaimResult claim(ClaimRequest request) {
    try (Connection connection = dataSource.getConnection();
        CallableStatement call =
            connection.prepareCall("{call dbo.usp_idempotency_claim(?, ?, ?, ?, ?, ?, ?)}")) {
      bind(
          call,
          request.tenant(),
          request.operation(),
          request.key(),
          request.requestHash(),
          request.lease().toMillis(),
          request.ttl().toSeconds(),
          request.takeoverAllowed());
      boolean won;
      IdempotencyRecord record;
      try (ResultSet rs = call.executeQuery()) {
        if (!rs.next()) {
          throw new SQLException("usp_idempotency_claim returned no row");
        }
        won = rs.getBoolean(1);
        // The procedure returns no clock; the columns are read in order, the clock set below.
        record = readRecord(rs, 2, Instant.EPOCH);
      }
      // A row just claimed was stamped with the procedure's SYSDATETIMEOFFSET(): that is the
      // database's clock at the claim. Otherwise the clock is read once more, after the claim.
      return new ClaimResult(
          won, withReadAt(record, won ? record.createdAt() : databaseNow(connection)));
    } catch (SQLException e) {
      throw unavailable("cannot claim a key", e);
    }
  }

  @Override
  public int purgeExpired(int batchSize) {
    return executeUpdate(
        "DELETE TOP (?) FROM idempotency_record"
            + " WHERE status IN ('COMPLETED', 'RELEASED') AND expires_at < "
            + now(),
        batchSize);
  }

  @Override
  protected String now() {
    return "SYSDATETIMEOFFSET()";
  }

  /**
   * DATEADD takes an int: milliseconds would overflow past 24 days, so seconds and the remaining
   * milliseconds are added apart.
   */
  @Override
  protected String plusMillis(String timestamp) {
    return "DATEADD(millisecond, ?, DATEADD(second, ?, " + timestamp + "))";
  }

  @Override
  protected java.util.List<Object> plusMillisParameters(long millis) {
    long seconds = Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, millis / 1000));
    return java.util.List.of((int) (millis % 1000), (int) seconds);
  }

  @Override
  protected String tableSizeQuery() {
    return "SELECT COALESCE(SUM(used_page_count), 0) * 8192 FROM sys.dm_db_partition_stats"
        + " WHERE object_id = OBJECT_ID('dbo.idempotency_record')";
  }
}
