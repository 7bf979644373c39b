package com.banhang.idempotency.jdbc;

import com.banhang.idempotency.IdempotencyRecord;
import com.banhang.idempotency.PartitionRetention;
import com.banhang.idempotency.spi.IdempotencyStore.ClaimRequest;
import com.banhang.idempotency.spi.IdempotencyStore.ClaimResult;
import com.banhang.idempotency.spi.KeyBusyException;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import javax.sql.DataSource;

/**
 * SQL Server: the claim is the stored procedure {@code dbo.usp_idempotency_claim} (sql/sqlserver
 * V10), which locks the key itself ({@code sp_getapplock} on a hash of its scope), reads it {@code
 * WITH (UPDLOCK, HOLDLOCK)} and inserts it in its own short transaction, so a concurrent caller of
 * the same key queues instead of failing on the primary key.
 */
public class SqlServerIdempotencyStore extends JdbcIdempotencyStore {

  public SqlServerIdempotencyStore(DataSource dataSource) {
    super(dataSource);
  }

  @Override
  public ClaimResult claim(ClaimRequest request) {
    refuseCallersTransaction();
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
   * The procedure {@code dbo.usp_idempotency_claim_in_transaction} (sql/sqlserver V10): the key's
   * lock taken for the caller's transaction, then a read of its row, so that the key (and only the
   * key) stays held until that transaction ends; nothing is written until {@link
   * #completeInTransaction}.
   */
  @Override
  public ClaimResult claimInTransaction(ClaimRequest request, Duration lockWait) {
    requireCallersTransaction();
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
      if (e.getErrorCode() == KEY_LOCK_TIMEOUT || e.getErrorCode() == LOCK_REQUEST_TIMEOUT) {
        throw new KeyBusyException("the key stayed held longer than " + lockWait, e);
      }
      throw unavailable("cannot claim a key", e);
    }
  }

  /** "Lock request time out period exceeded": a row lock waited past the procedure's bound. */
  private static final int LOCK_REQUEST_TIMEOUT = 1222;

  /** The procedures' own error when the key's lock (sp_getapplock) is not granted in time (V10). */
  static final int KEY_LOCK_TIMEOUT = 50004;

  /**
   * The purge skips rows that another transaction holds locked instead of waiting for them
   * (docs/sqlserver.md, "Purge and reconciliation skip locked rows"). It finds rows through the
   * expiry index, then locks their clustered rows, while a claim or a completion locks the
   * clustered row first and the index rows after it: waiting in opposite orders is a deadlock.
   * {@link #SKIP_LOCKED_ROWS} is valid whether READ_COMMITTED_SNAPSHOT is on or off, and a DBA may
   * switch it at any time.
   */
  @Override
  protected String purgeExpiredStatement() {
    return "DELETE TOP (?) FROM idempotency_record"
        + SKIP_LOCKED_ROWS
        + " WHERE status IN ('COMPLETED', 'RELEASED') AND expires_at < "
        + now()
        + OUTSIDE_DAY_PARTITIONS;
  }

  /**
   * Where the key table lies on its partition scheme (V22; docs/sqlserver.md, "Retention by
   * partition"), the batches take only the rows no TRUNCATE of a day takes: those before the lowest
   * boundary (the stragglers' partition) and from the highest one on. Asked of the catalogue in the
   * same statement, so that the purge stays one statement and follows a DBA who converts the table
   * at any time; on a table that is not partitioned the condition holds for every row. Written, not
   * run here: no SQL Server runs on the machine that wrote it.
   */
  static final String OUTSIDE_DAY_PARTITIONS =
      " AND (NOT EXISTS (SELECT 1 FROM sys.indexes AS i JOIN sys.partition_schemes AS s"
          + " ON s.data_space_id = i.data_space_id"
          + " WHERE i.object_id = OBJECT_ID(N'dbo.idempotency_record') AND i.index_id IN (0, 1))"
          + " OR expires_at < (SELECT MIN(CAST(v.value AS datetimeoffset(3)))"
          + " FROM sys.partition_range_values AS v JOIN sys.partition_functions AS f"
          + " ON f.function_id = v.function_id WHERE f.name = N'pf_idempotency_record_expiry')"
          + " OR expires_at >= (SELECT MAX(CAST(v.value AS datetimeoffset(3)))"
          + " FROM sys.partition_range_values AS v JOIN sys.partition_functions AS f"
          + " ON f.function_id = v.function_id WHERE f.name = N'pf_idempotency_record_expiry'))";

  /** The procedure is missing: a schema older than V22, which is never partitioned. */
  private static final int NO_SUCH_PROCEDURE = 2812;

  /**
   * The procedure {@code dbo.usp_idempotency_partition_retention} (sql/sqlserver V22): splits the
   * days ahead, then empties and merges away each expired day, its processing rows kept. Its lock
   * wait is its own (500 ms), so {@code lockWait} is not passed. Written, not run here.
   */
  @Override
  protected PartitionRetention retainByPartitions(int daysAhead, Duration lockWait) {
    try (Connection connection = dataSource.getConnection();
        CallableStatement call =
            connection.prepareCall("{call dbo.usp_idempotency_partition_retention(?)}")) {
      call.setInt(1, daysAhead);
      try (ResultSet rs = call.executeQuery()) {
        if (!rs.next() || !rs.getBoolean(1)) {
          return PartitionRetention.NOT_PARTITIONED;
        }
        String skipped = rs.getString(6);
        return new PartitionRetention(
            true,
            rs.getInt(2),
            rs.getInt(3),
            rs.getLong(4),
            rs.getLong(5),
            skipped == null || skipped.isEmpty() ? List.of() : List.of(skipped));
      }
    } catch (SQLException e) {
      if (e.getErrorCode() == NO_SUCH_PROCEDURE) {
        return PartitionRetention.NOT_PARTITIONED;
      }
      throw unavailable("cannot maintain the partitions of the idempotency store", e);
    }
  }

  /**
   * READPAST skips rows others hold locked; SQL Server accepts it under READ COMMITTED only where
   * that level locks, which with READ_COMMITTED_SNAPSHOT on it does only beside READCOMMITTEDLOCK.
   * The two are right in both states of the database option, so nothing needs to know which one
   * holds (a flag read once would go stale when a DBA switches it: every purge and reader run
   * refused until a restart). READCOMMITTEDLOCK is a granularity hint, so ROWLOCK may not join it.
   */
  static final String SKIP_LOCKED_ROWS = " WITH (READCOMMITTEDLOCK, READPAST)";

  /**
   * The operation and the key are varchar columns (so that the primary key fits SQL Server's
   * 900-byte limit), and the driver sends every string as nvarchar, which outranks varchar: the
   * column would be converted and its index sought through a computed range with a residual filter,
   * with update locks across that range. Typed as varchar, one longer than the column so that a
   * longer value cannot match a shorter stored one; keys and operations are printable ASCII, which
   * every code page holds.
   */
  @Override
  protected String asciiParameter(int columnLength) {
    return "CAST(? AS varchar(" + (columnLength + 1) + "))";
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
   * looks again at its next round.
   */
  @Override
  protected String processingReaderHints() {
    return SKIP_LOCKED_ROWS;
  }

  @Override
  protected String tableSizeQuery() {
    return "SELECT COALESCE(SUM(used_page_count), 0) * 8192 FROM sys.dm_db_partition_stats"
        + " WHERE object_id = OBJECT_ID('dbo.idempotency_record')";
  }
}
