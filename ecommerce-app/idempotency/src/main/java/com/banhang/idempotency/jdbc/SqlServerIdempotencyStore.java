package com.banhang.idempotency.jdbc;

import com.banhang.idempotency.IdempotencyRecord;
import com.banhang.idempotency.spi.ClaimRequest;
import com.banhang.idempotency.spi.ClaimResult;
import com.banhang.idempotency.spi.KeyBusyException;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
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
      // The procedure refuses a caller's transaction too (sql/sqlserver V5); this check names
      // the cause before a round trip.
      requireAutoCommit(connection);
      bind(call, claimParameters(request));
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

  /**
   * The procedure {@code dbo.usp_idempotency_claim_in_transaction} (sql/sqlserver V8): a read of
   * the key {@code WITH (UPDLOCK, HOLDLOCK)} inside the caller's transaction, which holds the key
   * (or the key range where it would be) until that transaction ends; nothing is written until
   * {@link #completeInTransaction}.
   */
  @Override
  public ClaimResult claimInTransaction(ClaimRequest request, Duration lockWait) {
    try (Connection connection = dataSource.getConnection();
        CallableStatement call =
            connection.prepareCall(
                "{call dbo.usp_idempotency_claim_in_transaction(?, ?, ?, ?, ?, ?, ?, ?)}")) {
      bind(
          call,
          claimParameters(
              request, (int) Math.max(1, Math.min(Integer.MAX_VALUE, lockWait.toMillis()))));
      try (ResultSet rs = call.executeQuery()) {
        if (!rs.next()) {
          throw new SQLException("usp_idempotency_claim_in_transaction returned no row");
        }
        return new ClaimResult(rs.getBoolean(1), readRecord(rs, 2, null));
      }
    } catch (SQLException e) {
      if (e.getErrorCode() == LOCK_REQUEST_TIMEOUT) {
        throw new KeyBusyException("the key stayed held longer than " + lockWait, e);
      }
      throw unavailable("cannot claim a key", e);
    }
  }

  /** "Lock request time out period exceeded." */
  private static final int LOCK_REQUEST_TIMEOUT = 1222;

  /**
   * The purge skips rows that another transaction holds locked instead of waiting for them
   * (docs/sqlserver.md, "Purge and reconciliation skip locked rows"). It finds rows through the
   * expiry index, then locks their clustered rows, while a claim or a completion locks the
   * clustered row first and the index rows after it: waiting in opposite orders is a deadlock.
   * READPAST skips row locks but not page locks, hence ROWLOCK. With READ_COMMITTED_SNAPSHOT on,
   * SQL Server accepts READPAST under READ COMMITTED only beside READCOMMITTEDLOCK, which is a
   * granularity hint like ROWLOCK, and the two may not be combined.
   */
  @Override
  public int purgeExpired(int batchSize) {
    String hints =
        readCommittedSnapshot()
            ? " WITH (READCOMMITTEDLOCK, READPAST)"
            : " WITH (ROWLOCK, READPAST)";
    return executeUpdate(
        "DELETE TOP (?) FROM idempotency_record"
            + hints
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

  /**
   * Reconciliation's reader skips processing rows that a claim or a completion holds locked; it
   * looks again at its next round. With READ_COMMITTED_SNAPSHOT on it reads row versions and takes
   * no shared locks, so it cannot wait in a lock cycle and needs no hint.
   */
  @Override
  protected String processingReaderHints() {
    return readCommittedSnapshot() ? "" : " WITH (READPAST)";
  }

  private volatile Boolean readCommittedSnapshot;

  /**
   * Whether the database reads committed data from row versions (READ_COMMITTED_SNAPSHOT), read
   * once. While it cannot be read, the answer is "on": the hints chosen then are valid either way.
   */
  boolean readCommittedSnapshot() {
    Boolean known = readCommittedSnapshot;
    if (known == null) {
      try (Connection connection = dataSource.getConnection();
          PreparedStatement statement =
              connection.prepareStatement(
                  "SELECT is_read_committed_snapshot_on FROM sys.databases"
                      + " WHERE database_id = DB_ID()");
          ResultSet rs = statement.executeQuery()) {
        known = !rs.next() || rs.getBoolean(1);
      } catch (SQLException e) {
        return true;
      }
      readCommittedSnapshot = known;
    }
    return known;
  }

  @Override
  protected String tableSizeQuery() {
    return "SELECT COALESCE(SUM(used_page_count), 0) * 8192 FROM sys.dm_db_partition_stats"
        + " WHERE object_id = OBJECT_ID('dbo.idempotency_record')";
  }
}
