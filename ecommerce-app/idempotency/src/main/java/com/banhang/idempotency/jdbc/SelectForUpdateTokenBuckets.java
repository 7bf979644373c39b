package com.banhang.idempotency.jdbc;

import io.github.bucket4j.BucketExceptions;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.jdbc.CustomColumnProvider;
import io.github.bucket4j.distributed.proxy.ClientSideConfig;
import io.github.bucket4j.distributed.proxy.ExpiredEntriesCleaner;
import io.github.bucket4j.distributed.proxy.generic.select_for_update.AbstractSelectForUpdateBasedProxyManager;
import io.github.bucket4j.distributed.proxy.generic.select_for_update.LockAndGetResult;
import io.github.bucket4j.distributed.proxy.generic.select_for_update.SelectForUpdateBasedTransaction;
import io.github.bucket4j.distributed.remote.RemoteBucketState;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

/**
 * Bucket4j's select-for-update algorithm (the one its PostgreSQL module runs) on H2 and SQL Server,
 * for which Bucket4j publishes no module: Bucket4j begins a transaction, locks and reads the row,
 * inserts an empty one first when there is none (and starts over), applies the command to the state
 * in memory and writes it back before the commit, with the time its module writes in {@code
 * expires_at} (Bucket4j's own column provider). Only the statements are this class's, and the
 * deletion of expired rows, which its module has for PostgreSQL.
 */
final class SelectForUpdateTokenBuckets extends AbstractSelectForUpdateBasedProxyManager<String>
    implements ExpiredEntriesCleaner {

  enum Dialect {
    H2(
        "SELECT state FROM " + SharedTokenBuckets.TABLE + " WHERE id = ? FOR UPDATE",
        "INSERT INTO " + SharedTokenBuckets.TABLE + " (id, state) VALUES (?, NULL)",
        // A row a take holds makes this wait for the take (milliseconds), which commits it with
        // a later time, so that the purge then leaves it.
        "DELETE FROM " + SharedTokenBuckets.TABLE + " WHERE expires_at < ? FETCH FIRST ? ROWS ONLY",
        false),
    // UPDLOCK holds the row until the commit as FOR UPDATE does; HOLDLOCK also holds the gap of a
    // missing row, so that two inserts of one new bucket cannot both pass their check. The purge
    // passes over rows a take holds, as PostgreSQL's SKIP LOCKED does, with the store's hints for
    // that, valid whether READ_COMMITTED_SNAPSHOT is on or off (docs/sqlserver.md).
    SQL_SERVER(
        "SELECT state FROM dbo."
            + SharedTokenBuckets.TABLE
            + " WITH (UPDLOCK, ROWLOCK, HOLDLOCK) WHERE id = ?",
        "INSERT INTO dbo." + SharedTokenBuckets.TABLE + " (id, state) VALUES (?, NULL)",
        "DELETE TOP (?) FROM dbo."
            + SharedTokenBuckets.TABLE
            + SqlServerIdempotencyStore.SKIP_LOCKED_ROWS
            + " WHERE expires_at < ?",
        true);

    final String select;
    final String insert;
    final String update;
    final String deleteExpired;

    /** Whether {@link #deleteExpired} takes the batch size before the time, not after it. */
    final boolean batchSizeFirst;

    Dialect(String select, String insert, String deleteExpired, boolean batchSizeFirst) {
      this.select = select;
      this.insert = insert;
      this.update =
          "UPDATE "
              + (select.contains("dbo.") ? "dbo." : "")
              + SharedTokenBuckets.TABLE
              + " SET state = ?, "
              + SharedTokenBuckets.EXPIRES_AT
              + " = ? WHERE id = ?";
      this.deleteExpired = deleteExpired;
      this.batchSizeFirst = batchSizeFirst;
    }

    /** Whether {@code e} says the row was inserted meanwhile by another transaction. */
    boolean isDuplicateKey(SQLException e) {
      return this == H2
          ? "23505".equals(e.getSQLState())
          : e.getErrorCode() == 2627 || e.getErrorCode() == 2601;
    }
  }

  private final DataSource dataSource;
  private final Dialect dialect;

  private final CustomColumnProvider<String> expiresAt;

  SelectForUpdateTokenBuckets(
      DataSource dataSource,
      Dialect dialect,
      Duration timeout,
      ExpirationAfterWriteStrategy expiry) {
    super(
        ClientSideConfig.getDefault()
            .withRequestTimeout(timeout)
            .withExpirationAfterWriteStrategy(expiry));
    this.dataSource = dataSource;
    this.dialect = dialect;
    this.expiresAt =
        CustomColumnProvider.createExpiresInColumnProvider(SharedTokenBuckets.EXPIRES_AT, expiry);
  }

  @Override
  protected SelectForUpdateBasedTransaction allocateTransaction(
      String key, Optional<Long> requestTimeoutNanos) {
    Connection connection;
    try {
      connection = dataSource.getConnection();
    } catch (SQLException e) {
      throw new BucketExceptions.BucketExecutionException(e);
    }
    return new SelectForUpdateBasedTransaction() {
      @Override
      public void begin(Optional<Long> timeoutNanos) {
        run(() -> connection.setAutoCommit(false));
      }

      @Override
      public void rollback() {
        run(connection::rollback);
      }

      @Override
      public void commit(Optional<Long> timeoutNanos) {
        run(connection::commit);
      }

      @Override
      public LockAndGetResult tryLockAndGet(Optional<Long> timeoutNanos) {
        try (PreparedStatement select = connection.prepareStatement(dialect.select)) {
          applyTimeout(select, timeoutNanos);
          select.setString(1, key);
          try (ResultSet row = select.executeQuery()) {
            return row.next()
                ? LockAndGetResult.locked(row.getBytes(1))
                : LockAndGetResult.notLocked();
          }
        } catch (SQLException e) {
          throw new BucketExceptions.BucketExecutionException(e);
        }
      }

      @Override
      public boolean tryInsertEmptyData(Optional<Long> timeoutNanos) {
        try (PreparedStatement insert = connection.prepareStatement(dialect.insert)) {
          applyTimeout(insert, timeoutNanos);
          insert.setString(1, key);
          return insert.executeUpdate() > 0;
        } catch (SQLException e) {
          if (dialect.isDuplicateKey(e)) {
            return false; // another server inserted it: Bucket4j rolls back and locks it
          }
          throw new BucketExceptions.BucketExecutionException(e);
        }
      }

      @Override
      public void update(byte[] data, RemoteBucketState newState, Optional<Long> timeoutNanos) {
        try (PreparedStatement update = connection.prepareStatement(dialect.update)) {
          applyTimeout(update, timeoutNanos);
          update.setBytes(1, data);
          expiresAt.setCustomField(key, 2, update, newState, currentTimeNanos());
          update.setString(3, key);
          update.executeUpdate();
        } catch (SQLException e) {
          throw new BucketExceptions.BucketExecutionException(e);
        }
      }

      @Override
      public void release() {
        run(connection::close);
      }
    };
  }

  @Override
  public void removeProxy(String key) {
    throw new UnsupportedOperationException("buckets are never removed one by one");
  }

  @Override
  public boolean isExpireAfterWriteSupported() {
    return true;
  }

  @Override
  public int removeExpired(int batchSize) {
    try (Connection connection = dataSource.getConnection()) {
      connection.setAutoCommit(true); // each batch commits alone, as a take does
      return deleteExpired(connection, batchSize);
    } catch (SQLException e) {
      throw new BucketExceptions.BucketExecutionException(e);
    }
  }

  private int deleteExpired(Connection connection, int batchSize) throws SQLException {
    try (PreparedStatement delete = connection.prepareStatement(dialect.deleteExpired)) {
      // The node's clock, which Bucket4j refills by and wrote expires_at with (SharedTokenBuckets'
      // KEPT_AFTER_FULL covers the nodes' differences), not the database's.
      long now = TimeUnit.NANOSECONDS.toMillis(currentTimeNanos());
      delete.setInt(dialect.batchSizeFirst ? 1 : 2, batchSize);
      delete.setLong(dialect.batchSizeFirst ? 2 : 1, now);
      return delete.executeUpdate();
    }
  }

  private interface SqlAction {
    void run() throws SQLException;
  }

  private static void run(SqlAction action) {
    try {
      action.run();
    } catch (SQLException e) {
      throw new BucketExceptions.BucketExecutionException(e);
    }
  }
}
