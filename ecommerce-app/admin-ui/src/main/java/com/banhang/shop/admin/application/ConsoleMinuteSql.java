package com.banhang.shop.admin.application;

import java.sql.SQLException;

/**
 * The statements of {@code console_minute} (V17) that differ between databases, all of one
 * database's in one place. The upserts must add (counters) or keep the larger value (gauges) in the
 * database, not in a read-then-write of the application, because several nodes write the same row
 * in the same seconds.
 */
enum ConsoleMinuteSql {
  H2(
      merge("t.reading + s.reading", "TIMESTAMP WITH TIME ZONE", ""),
      merge(
          "CASE WHEN s.reading > t.reading THEN s.reading ELSE t.reading END",
          "TIMESTAMP WITH TIME ZONE",
          ""),
      "DELETE FROM console_minute WHERE minute_at < ? FETCH FIRST ? ROWS ONLY"),

  POSTGRESQL(
      upsert("console_minute.reading + EXCLUDED.reading"),
      upsert("GREATEST(console_minute.reading, EXCLUDED.reading)"),
      // PostgreSQL's DELETE has no LIMIT: the batch is chosen by the rows' physical ids.
      "DELETE FROM console_minute WHERE ctid IN"
          + " (SELECT ctid FROM console_minute WHERE minute_at < ? LIMIT ?)"),

  SQLSERVER(
      merge("t.reading + s.reading", "datetimeoffset(3)", " WITH (HOLDLOCK)"),
      merge(
          "CASE WHEN s.reading > t.reading THEN s.reading ELSE t.reading END",
          "datetimeoffset(3)",
          " WITH (HOLDLOCK)"),
      // TOP's count comes first in T-SQL; the statement binds it last, so it is swapped here.
      "DELETE TOP (?) FROM dbo.console_minute WHERE minute_at < ?");

  /** Adds the parameters' reading into the row: minute, signal, series, reading. */
  final String add;

  /** Keeps the larger of the row's and the parameters' reading: minute, signal, series, reading. */
  final String max;

  /** Deletes at most a batch of rows older than a minute: minute, batch size (see bind order). */
  final String deleteBatch;

  ConsoleMinuteSql(String add, String max, String deleteBatch) {
    this.add = add;
    this.max = max;
    this.deleteBatch = deleteBatch;
  }

  /** True where the batch size is the first parameter of {@link #deleteBatch}. */
  boolean batchSizeFirst() {
    return this == SQLSERVER;
  }

  /**
   * A write that collided with another node's and is worth repeating at once: H2's MERGE does not
   * lock a key that does not exist yet, so two nodes adding into a new minute may both insert it
   * (duplicate key, or H2's concurrent update); and a deadlock victim on any database. Repeated,
   * the row exists and the upsert adds to it.
   */
  boolean isConflict(SQLException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLException sql) {
        String state = sql.getSQLState();
        int code = sql.getErrorCode();
        if ("23505".equals(state) // unique violation (H2, PostgreSQL)
            || "40P01".equals(state) // PostgreSQL deadlock
            || (this == H2 && code == 90131) // H2: concurrent update of the same row
            || (this == SQLSERVER && (code == 2627 || code == 2601 || code == 1205))) {
          return true;
        }
      }
    }
    return false;
  }

  /** The database behind a driver's product name. */
  static ConsoleMinuteSql forProduct(String product) {
    if (product.startsWith("Microsoft SQL Server")) {
      return SQLSERVER;
    }
    if (product.startsWith("PostgreSQL")) {
      return POSTGRESQL;
    }
    if (product.startsWith("H2")) {
      return H2;
    }
    throw new IllegalStateException("no console_minute statements for database " + product);
  }

  private static String merge(String update, String timestampType, String hint) {
    String table = hint.isEmpty() ? "console_minute" : "dbo.console_minute";
    return "MERGE INTO "
        + table
        + hint
        + " AS t USING (SELECT CAST(? AS "
        + timestampType
        + ") AS minute_at, CAST(? AS varchar(32)) AS signal_name, CAST(? AS varchar(100)) AS"
        + " series, CAST(? AS bigint) AS reading) AS s"
        + " ON t.minute_at = s.minute_at AND t.signal_name = s.signal_name AND t.series = s.series"
        + " WHEN MATCHED THEN UPDATE SET reading = "
        + update
        + " WHEN NOT MATCHED THEN INSERT (minute_at, signal_name, series, reading)"
        + " VALUES (s.minute_at, s.signal_name, s.series, s.reading)"
        // T-SQL requires a MERGE to end with a semicolon; H2 needs none.
        + (hint.isEmpty() ? "" : ";");
  }

  private static String upsert(String update) {
    return "INSERT INTO console_minute (minute_at, signal_name, series, reading) VALUES (?, ?, ?, ?)"
        + " ON CONFLICT (minute_at, signal_name, series) DO UPDATE SET reading = "
        + update;
  }
}
