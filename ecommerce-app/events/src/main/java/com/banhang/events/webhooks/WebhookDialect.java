package com.banhang.events.webhooks;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;

/**
 * What sets one database apart in the webhook tables' statements: its clock, how a duration is
 * added to it, how the dispatcher's claim is limited and skips rows another node locks, and how a
 * row is inserted unless present. The outbox's own dialect (package {@code jdbc}) makes the same
 * choices for its tables; this one is kept apart so that neither package reaches into the other.
 */
enum WebhookDialect {
  H2("CURRENT_TIMESTAMP") {
    @Override
    String plus(String timestamp) {
      return "DATEADD(MILLISECOND, CAST(? AS BIGINT), " + timestamp + ")";
    }

    @Override
    String claim(String columns, String where) {
      return "SELECT "
          + columns
          + " FROM webhook_delivery d WHERE "
          + where
          + " ORDER BY d.next_attempt_at FETCH FIRST ? ROWS ONLY FOR UPDATE SKIP LOCKED";
    }

    @Override
    String unlessPresent(String table, String keyPredicate) {
      // A concurrent insert of the same key fails on the unique key instead; H2 keeps the
      // transaction, and the store counts that row as present.
      return " WHERE NOT EXISTS (SELECT 1 FROM " + table + " WHERE " + keyPredicate + ")";
    }
  },

  POSTGRESQL("statement_timestamp()") {
    @Override
    String plus(String timestamp) {
      return "(" + timestamp + " + CAST(? AS bigint) * interval '1 millisecond')";
    }

    @Override
    String claim(String columns, String where) {
      return "SELECT "
          + columns
          + " FROM webhook_delivery d WHERE "
          + where
          + " ORDER BY d.next_attempt_at LIMIT ? FOR UPDATE OF d SKIP LOCKED";
    }

    @Override
    String unlessPresent(String table, String keyPredicate) {
      // A failed INSERT would abort the whole transaction on PostgreSQL: conflicts do nothing.
      return " ON CONFLICT DO NOTHING";
    }

    @Override
    boolean bindsKeyAgain() {
      return false;
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
    String claim(String columns, String where) {
      // READPAST skips rows another dispatcher has locked; UPDLOCK keeps the rows read here from
      // being claimed by another one until this transaction ends.
      return "SELECT TOP (?) "
          + columns
          + " FROM webhook_delivery d WITH (UPDLOCK, ROWLOCK, READPAST) WHERE "
          + where
          + " ORDER BY d.next_attempt_at";
    }

    @Override
    boolean limitFirst() {
      return true;
    }

    @Override
    String unlessPresent(String table, String keyPredicate) {
      // HOLDLOCK's key-range lock queues a concurrent insert of the same key until this one ends.
      return " WHERE NOT EXISTS (SELECT 1 FROM "
          + table
          + " WITH (UPDLOCK, HOLDLOCK) WHERE "
          + keyPredicate
          + ")";
    }

    @Override
    String text(String literal) {
      // The columns are nvarchar: an nvarchar literal matches the filtered indexes' predicates.
      return "N'" + literal + "'";
    }
  };

  private final String now;

  WebhookDialect(String now) {
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

  /**
   * The claim's SELECT of deliveries matching {@code where}, locking what it returns and skipping
   * what others lock; the limit is its last parameter, or its first where {@link #limitFirst}.
   */
  abstract String claim(String columns, String where);

  /** Whether the claim's limit comes before the parameters of its WHERE. */
  boolean limitFirst() {
    return false;
  }

  /**
   * What follows an {@code INSERT ... SELECT} so that it inserts nothing when a row with the same
   * key is present; where it repeats the key, {@link #bindsKeyAgain} is true.
   */
  abstract String unlessPresent(String table, String keyPredicate);

  /** Whether {@link #unlessPresent} takes the key's parameters once more. */
  boolean bindsKeyAgain() {
    return true;
  }

  /** A string literal in the columns' type. */
  String text(String literal) {
    return "'" + literal + "'";
  }

  static WebhookDialect of(String productName) {
    if (productName.startsWith("Microsoft SQL Server")) {
      return SQL_SERVER;
    }
    if (productName.startsWith("PostgreSQL")) {
      return POSTGRESQL;
    }
    if (productName.startsWith("H2")) {
      return H2;
    }
    throw new IllegalStateException("no webhook deliveries for database " + productName);
  }
}
