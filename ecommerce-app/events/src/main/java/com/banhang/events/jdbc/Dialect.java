package com.banhang.events.jdbc;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;

/**
 * What sets one database apart in the outbox's statements: its clock, how a duration is added to
 * it, how a batch is limited and locked, and how a row is inserted unless present. Everything else
 * is written once in {@link JdbcOutboxStore}.
 */
enum Dialect {
  H2("CURRENT_TIMESTAMP") {
    @Override
    String plus(String timestamp) {
      return "DATEADD(MILLISECOND, CAST(? AS BIGINT), " + timestamp + ")";
    }

    @Override
    String claimable(String columns, String where) {
      return "SELECT "
          + columns
          + " FROM outbox_event e WHERE "
          + where
          + " ORDER BY e.created_at FETCH FIRST ? ROWS ONLY FOR UPDATE SKIP LOCKED";
    }

    @Override
    String receive() {
      // A concurrent insert of the same pair fails on the primary key; H2 keeps the transaction.
      return "INSERT INTO inbox_event (source, event_id, received_at) SELECT ?, ?, "
          + now()
          + " WHERE NOT EXISTS (SELECT 1 FROM inbox_event WHERE source = ? AND event_id = ?)";
    }
  },

  POSTGRESQL("statement_timestamp()") {
    @Override
    String plus(String timestamp) {
      return "(" + timestamp + " + CAST(? AS bigint) * interval '1 millisecond')";
    }

    @Override
    String lockAggregate() {
      // INSERT ... SELECT MAX(...) + 1 takes no lock on rows that do not exist yet: two writers of
      // one aggregate would both pick the same sequence and the second would fail on the unique
      // constraint. A transaction-scoped advisory lock on the aggregate queues them instead.
      return "SELECT pg_advisory_xact_lock(hashtextextended(? || '/' || ?, 7))";
    }

    @Override
    String claimable(String columns, String where) {
      return "SELECT "
          + columns
          + " FROM outbox_event e WHERE "
          + where
          + " ORDER BY e.created_at LIMIT ? FOR UPDATE OF e SKIP LOCKED";
    }

    @Override
    String receive() {
      // Waits for a concurrent insert of the same pair and then inserts nothing: a failed INSERT
      // would abort the consumer's whole transaction on PostgreSQL.
      return "INSERT INTO inbox_event (source, event_id, received_at) VALUES (?, ?, "
          + now()
          + ") ON CONFLICT DO NOTHING";
    }
  },

  SQL_SERVER("SYSDATETIMEOFFSET()") {
    /** DATEADD takes an int: seconds and the remaining milliseconds are added apart. */
    @Override
    String plus(String timestamp) {
      return "DATEADD(millisecond, ?, DATEADD(second, ?, " + timestamp + "))";
    }

    @Override
    int bind(PreparedStatement statement, int index, Duration duration) throws SQLException {
      long millis = duration.toMillis();
      statement.setInt(index, (int) (millis % 1000));
      statement.setLong(index + 1, millis / 1000);
      return index + 2;
    }

    @Override
    String sequenceSource() {
      // The key-range lock of HOLDLOCK on the aggregate's index range queues a second writer of
      // the same aggregate until the first commits, even when the aggregate has no row yet.
      return "outbox_event WITH (UPDLOCK, HOLDLOCK)";
    }

    @Override
    String claimable(String columns, String where) {
      // READPAST skips rows another relay has locked; UPDLOCK keeps the rows read here from being
      // claimed by another relay until this transaction ends.
      return "SELECT TOP (?) "
          + columns
          + " FROM outbox_event e WITH (UPDLOCK, ROWLOCK, READPAST)"
          + " WHERE "
          + where
          + " ORDER BY e.created_at";
    }

    @Override
    String receive() {
      return "INSERT INTO inbox_event (source, event_id, received_at) SELECT ?, ?, "
          + now()
          + " WHERE NOT EXISTS (SELECT 1 FROM inbox_event WITH (UPDLOCK, HOLDLOCK)"
          + " WHERE source = ? AND event_id = ?)";
    }

    @Override
    String purge(String where) {
      return "DELETE TOP (?) FROM outbox_event WHERE id IN (SELECT e.id FROM outbox_event e WHERE "
          + where
          + ")";
    }
  };

  private final String now;

  Dialect(String now) {
    this.now = now;
  }

  /** The database's clock: leases and retries are on one clock for every node. */
  String now() {
    return now;
  }

  /** {@code timestamp} plus a duration bound by {@link #bind}. */
  abstract String plus(String timestamp);

  /** Binds a duration for {@link #plus}; returns the next parameter's index. */
  int bind(PreparedStatement statement, int index, Duration duration) throws SQLException {
    statement.setLong(index, duration.toMillis());
    return index + 1;
  }

  /** A statement that serializes writers of one aggregate, or null where the insert does. */
  String lockAggregate() {
    return null;
  }

  /** The FROM of the insert's {@code MAX(aggregate_sequence)}. */
  String sequenceSource() {
    return "outbox_event";
  }

  /**
   * The claim's SELECT, locking what it returns and skipping what others lock; its one parameter is
   * the limit.
   */
  abstract String claimable(String columns, String where);

  /** The inbox's insert-unless-present; one row affected means the event is new. */
  abstract String receive();

  /** Retention's DELETE of at most the last parameter's count of rows matching {@code where}. */
  String purge(String where) {
    return "DELETE FROM outbox_event WHERE id IN (SELECT e.id FROM outbox_event e WHERE "
        + where
        + " FETCH FIRST ? ROWS ONLY)";
  }

  /** Whether the limit of {@link #purge} is its first parameter. */
  boolean purgeLimitFirst() {
    return this == SQL_SERVER;
  }

  static Dialect of(String productName) {
    if (productName.startsWith("Microsoft SQL Server")) {
      return SQL_SERVER;
    }
    if (productName.startsWith("PostgreSQL")) {
      return POSTGRESQL;
    }
    if (productName.startsWith("H2")) {
      return H2;
    }
    throw new IllegalStateException("no outbox for database " + productName);
  }
}
