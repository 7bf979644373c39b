package com.banhang.idempotency.persistence;

import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
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
      try (ResultSet rs = call.executeQuery()) {
        if (!rs.next()) {
          throw new SQLException("usp_idempotency_claim returned no row");
        }
        return new ClaimResult(rs.getBoolean(1), readRecord(rs, 2));
      }
    } catch (SQLException e) {
      throw unavailable("cannot claim a key", e);
    }
  }

  @Override
  public int purgeExpired(int batchSize) {
    return executeUpdate(
        "DELETE TOP (?) FROM idempotency_record"
            + " WHERE status IN ('COMPLETED', 'RELEASED') AND expires_at < ?",
        batchSize,
        utcNow());
  }

  @Override
  protected String tableSizeQuery() {
    return "SELECT COALESCE(SUM(used_page_count), 0) * 8192 FROM sys.dm_db_partition_stats"
        + " WHERE object_id = OBJECT_ID('dbo.idempotency_record')";
  }
}
