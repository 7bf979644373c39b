package com.banhang.events.sql;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;

/**
 * What sets one database apart in the events library's statements: its clock, how a duration is
 * added to it, how a claim is limited and skips rows another node locks, how a batch is deleted,
 * how writers of one key are queued, and how a row is inserted unless present. Everything else is
 * written once in each store, for the outbox's tables and for the webhook tables alike.
 */
public enum SqlDialect {
  H2("CURRENT_TIMESTAMP") {
    @Override
    public String plus(String timestamp) {
      return "DATEADD(MILLISECOND, CAST(? AS BIGINT), " + timestamp + ")";
    }

    @Override
    String lockedLimit(String alias) {
      return " FETCH FIRST ? ROWS ONLY FOR UPDATE SKIP LOCKED";
    }
  },

  POSTGRESQL("statement_timestamp()") {
    @Override
    public String plus(String timestamp) {
      return "(" + timestamp + " + CAST(? AS bigint) * interval '1 millisecond')";
    }

    @Override
    String lockedLimit(String alias) {
      return " LIMIT ? FOR UPDATE OF " + alias + " SKIP LOCKED";
    }

    @Override
    public String keyLock() {
      // A transaction-scoped advisory lock on the key: it holds even while no row has the key yet.
      return "SELECT pg_advisory_xact_lock(hashtextextended(? || '/' || ?, 7))";
    }

    @Override
    public String unlessPresent(String table, String keyPredicate) {
      // Waits for a concurrent insert of the same key and then inserts nothing: a failed INSERT
      // would abort the caller's whole transaction on PostgreSQL (an inbox consumer's, say).
      return " ON CONFLICT DO NOTHING";
    }

    @Override
    public boolean bindsKeyAgain() {
      return false;
    }
  },

  SQL_SERVER("SYSDATETIMEOFFSET()") {
    /** DATEADD takes an int: seconds and the remaining milliseconds are added apart. */
    @Override
    public String plus(String timestamp) {
      return "DATEADD(millisecond, ?, DATEADD(second, ?, " + timestamp + "))";
    }

    @Override
    public int bind(PreparedStatement statement, int index, Duration duration) throws SQLException {
      long millis = duration.toMillis();
      statement.setInt(index, (int) (millis % 1000));
      statement.setLong(index + 1, millis / 1000);
      return index + 2;
    }

    @Override
    public String claim(
        String columns, String table, String alias, String where, String orderColumn) {
      // READPAST skips rows another node (relay or dispatcher) has locked; UPDLOCK keeps the rows
      // read here from being claimed by another one until this transaction ends.
      return "SELECT TOP (?) "
          + columns
          + " FROM "
          + table
          + " "
          + alias
          + " WITH (UPDLOCK, ROWLOCK, READPAST) WHERE "
          + where
          + " ORDER BY "
          + alias
          + "."
          + orderColumn;
    }

    @Override
    public boolean limitFirst() {
      return true;
    }

    @Override
    public String deleteAtMost(String table, String alias, String where) {
      // T-SQL has FETCH only after ORDER BY ... OFFSET: TOP limits the DELETE itself instead.
      return "DELETE TOP (?) FROM "
          + table
          + " WHERE id IN (SELECT "
          + alias
          + ".id FROM "
          + table
          + " "
          + alias
          + " WHERE "
          + where
          + ")";
    }

    @Override
    public String rangeLocked(String table) {
      // HOLDLOCK's key-range lock on the range read queues a second writer of the same key until
      // the first commits, even when no row has the key yet; UPDLOCK keeps two readers of the
      // range from both going on to write.
      return table + " WITH (UPDLOCK, HOLDLOCK)";
    }

    @Override
    public String text(String literal) {
      // The columns are nvarchar: an nvarchar literal matches the filtered indexes' predicates.
      return "N'" + literal + "'";
    }
  };

  private final String now;

  SqlDialect(String now) {
    this.now = now;
  }

  /** The database's clock: leases and retries are on one clock for every node. */
  public String now() {
    return now;
  }

  /** {@code timestamp} plus a duration bound by {@link #bind}. */
  public abstract String plus(String timestamp);

  /** Binds a duration for {@link #plus}; returns the next parameter's index. */
  public int bind(PreparedStatement statement, int index, Duration duration) throws SQLException {
    statement.setLong(index, duration.toMillis());
    return index + 1;
  }

  /**
   * The claim's SELECT of {@code columns} from {@code table}, as {@code alias}, of the rows
   * matching {@code where} in the order of {@code alias.orderColumn}, locking what it returns and
   * skipping what others lock; the limit is its last parameter, or its first where {@link
   * #limitFirst}.
   */
  public String claim(
      String columns, String table, String alias, String where, String orderColumn) {
    return "SELECT "
        + columns
        + " FROM "
        + table
        + " "
        + alias
        + " WHERE "
        + where
        + " ORDER BY "
        + alias
        + "."
        + orderColumn
        + lockedLimit(alias);
  }

  /**
   * What follows the claim's ORDER BY where the limit and the row locks come last (H2 and
   * PostgreSQL): at most the last parameter's count of rows, locked, skipping rows others lock.
   */
  String lockedLimit(String alias) {
    throw new UnsupportedOperationException(this + " builds its own claim");
  }

  /**
   * Whether the limit of {@link #claim} and of {@link #deleteAtMost} comes before the parameters of
   * their WHERE.
   */
  public boolean limitFirst() {
    return false;
  }

  /**
   * A DELETE of at most the limit's count of {@code table}'s rows (keyed by {@code id}) matching
   * {@code where} on {@code alias}; the limit is its last parameter, or its first where {@link
   * #limitFirst}.
   */
  public String deleteAtMost(String table, String alias, String where) {
    return "DELETE FROM "
        + table
        + " WHERE id IN (SELECT "
        + alias
        + ".id FROM "
        + table
        + " "
        + alias
        + " WHERE "
        + where
        + " FETCH FIRST ? ROWS ONLY)";
  }

  /**
   * A statement that queues writers of one key, made of its two string parameters, until the
   * transaction ends; null where the database queues them by {@link #rangeLocked} instead, or not
   * at all.
   */
  public String keyLock() {
    return null;
  }

  /**
   * {@code table} as a FROM whose range read stays locked against other writers until the
   * transaction ends, where the database has a hint for it; elsewhere {@code table} as it is.
   */
  public String rangeLocked(String table) {
    return table;
  }

  /**
   * What follows an {@code INSERT ... SELECT} so that it inserts nothing when a row of {@code
   * table} matching {@code keyPredicate} is present; where it repeats the key's parameters, {@link
   * #bindsKeyAgain} is true.
   */
  public String unlessPresent(String table, String keyPredicate) {
    // Where the range read is not locked (H2), a concurrent insert of the same key fails on the
    // table's unique key instead; H2 keeps the transaction, and the stores count that row as
    // present.
    return " WHERE NOT EXISTS (SELECT 1 FROM "
        + rangeLocked(table)
        + " WHERE "
        + keyPredicate
        + ")";
  }

  /** Whether {@link #unlessPresent} takes the key's parameters once more. */
  public boolean bindsKeyAgain() {
    return true;
  }

  /** A string literal in the columns' type. */
  public String text(String literal) {
    return "'" + literal + "'";
  }

  /** Whether {@code e} is a unique-key violation, on any of the databases. */
  public static boolean isDuplicateKey(SQLException e) {
    // 23505: H2's and PostgreSQL's unique violation; 2627 and 2601: SQL Server's.
    return "23505".equals(e.getSQLState()) || e.getErrorCode() == 2627 || e.getErrorCode() == 2601;
  }

  /** The dialect of the database whose driver gives {@code productName}. */
  public static SqlDialect of(String productName) {
    if (productName.startsWith("Microsoft SQL Server")) {
      return SQL_SERVER;
    }
    if (productName.startsWith("PostgreSQL")) {
      return POSTGRESQL;
    }
    if (productName.startsWith("H2")) {
      return H2;
    }
    throw new IllegalStateException(
        "the events library runs on H2, PostgreSQL or SQL Server, not on " + productName);
  }
}
