package com.banhang.idempotency.jdbc;

import io.github.bucket4j.BucketExceptions;
import io.github.bucket4j.distributed.proxy.ClientSideConfig;
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
import javax.sql.DataSource;

/**
 * Bucket4j's select-for-update algorithm (the one its PostgreSQL module runs) on H2 and SQL Server,
 * for which Bucket4j publishes no module: Bucket4j begins a transaction, locks and reads the row,
 * inserts an empty one first when there is none (and starts over), applies the command to the state
 * in memory and writes it back before the commit. Only the statements are this class's.
 */
final class SelectForUpdateTokenBuckets extends AbstractSelectForUpdateBasedProxyManager<String> {

  enum Dialect {
    H2(
        "SELECT state FROM " + SharedTokenBuckets.TABLE + " WHERE id = ? FOR UPDATE",
        "INSERT INTO " + SharedTokenBuckets.TABLE + " (id, state) VALUES (?, NULL)"),
    // UPDLOCK holds the row until the commit as FOR UPDATE does; HOLDLOCK also holds the gap of a
    // missing row, so that two inserts of one new bucket cannot both pass their check.
    SQL_SERVER(
        "SELECT state FROM dbo."
            + SharedTokenBuckets.TABLE
            + " WITH (UPDLOCK, ROWLOCK, HOLDLOCK) WHERE id = ?",
        "INSERT INTO dbo." + SharedTokenBuckets.TABLE + " (id, state) VALUES (?, NULL)");

    final String select;
    final String insert;
    final String update;

    Dialect(String select, String insert) {
      this.select = select;
      this.insert = insert;
      this.update =
          "UPDATE "
              + (select.contains("dbo.") ? "dbo." : "")
              + SharedTokenBuckets.TABLE
              + " SET state = ? WHERE id = ?";
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

  SelectForUpdateTokenBuckets(DataSource dataSource, Dialect dialect, Duration timeout) {
    super(ClientSideConfig.getDefault().withRequestTimeout(timeout));
    this.dataSource = dataSource;
    this.dialect = dialect;
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
          update.setString(2, key);
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
    return false;
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
