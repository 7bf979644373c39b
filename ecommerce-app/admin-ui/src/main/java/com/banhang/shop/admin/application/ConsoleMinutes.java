package com.banhang.shop.admin.application;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import javax.sql.DataSource;

/**
 * The table behind the Overview's charts ({@code console_minute}, V17): every node adds its counts
 * of a minute into the same rows and writes the largest gauge reading, so that any console shows
 * all nodes. Written by {@link ConsoleMinuteWriter}, read by {@link OperationsOverview}.
 */
@ApplicationScoped
public class ConsoleMinutes {

  /**
   * The order of the rows in one write: two nodes writing the same rows lock them in the same
   * order, so their writes queue instead of deadlocking.
   */
  private static final Comparator<ConsoleMinute> KEY_ORDER =
      Comparator.comparing(ConsoleMinute::minute)
          .thenComparing(ConsoleMinute::signal)
          .thenComparing(ConsoleMinute::series);

  @Resource(lookup = "jdbc/shop")
  DataSource dataSource;

  private volatile ConsoleMinuteSql sql;

  /**
   * Adds {@code counters} into their rows and keeps the larger reading of {@code gauges}, in one
   * transaction: all or nothing, so that a failed write can be repeated whole without counting
   * anything twice.
   *
   * @throws IllegalStateException when the database refused or could not be reached
   */
  public void write(List<ConsoleMinute> counters, List<ConsoleMinute> gauges) {
    if (counters.isEmpty() && gauges.isEmpty()) {
      return;
    }
    List<ConsoleMinute> added = counters.stream().sorted(KEY_ORDER).toList();
    List<ConsoleMinute> maxed = gauges.stream().sorted(KEY_ORDER).toList();
    ConsoleMinuteSql statements = sql();
    try {
      writeOnce(statements, added, maxed);
    } catch (SQLException e) {
      if (!statements.isConflict(e)) {
        throw failed("write", e);
      }
      // Another node wrote the same rows at the same moment; its write is done now.
      try {
        writeOnce(statements, added, maxed);
      } catch (SQLException again) {
        throw failed("write", again);
      }
    }
  }

  private void writeOnce(
      ConsoleMinuteSql statements, List<ConsoleMinute> counters, List<ConsoleMinute> gauges)
      throws SQLException {
    try (Connection connection = dataSource.getConnection()) {
      // A connection of a caller's transaction would commit the minute with the caller's work, or
      // roll it back with it: the write must stand on its own.
      if (!connection.getAutoCommit()) {
        throw new SQLException(
            "a console minute commits on its own: write it outside any transaction", "25000");
      }
      connection.setAutoCommit(false);
      try {
        batch(connection, statements.add, counters);
        batch(connection, statements.max, gauges);
        connection.commit();
      } catch (SQLException | RuntimeException e) {
        connection.rollback();
        throw e;
      } finally {
        connection.setAutoCommit(true);
      }
    }
  }

  private static void batch(Connection connection, String statement, List<ConsoleMinute> rows)
      throws SQLException {
    if (rows.isEmpty()) {
      return;
    }
    try (PreparedStatement upsert = connection.prepareStatement(statement)) {
      for (ConsoleMinute row : rows) {
        upsert.setObject(1, at(row.minute()));
        upsert.setString(2, row.signal());
        upsert.setString(3, row.series());
        upsert.setLong(4, row.reading());
        upsert.addBatch();
      }
      upsert.executeBatch();
    }
  }

  /**
   * Deletes rows of minutes before {@code cutoff}, at most {@code batchSize} per statement (each
   * its own short transaction, so the cleanup never holds many locks) and at most {@code
   * maxBatches} statements per call; the next call goes on where this one stopped.
   *
   * @return the rows deleted
   */
  public int deleteBefore(Instant cutoff, int batchSize, int maxBatches) {
    ConsoleMinuteSql statements = sql();
    int deleted = 0;
    try (Connection connection = dataSource.getConnection();
        PreparedStatement delete = connection.prepareStatement(statements.deleteBatch)) {
      for (int batch = 0; batch < maxBatches; batch++) {
        if (statements.batchSizeFirst()) {
          delete.setInt(1, batchSize);
          delete.setObject(2, at(cutoff));
        } else {
          delete.setObject(1, at(cutoff));
          delete.setInt(2, batchSize);
        }
        int rows = delete.executeUpdate();
        deleted += rows;
        if (rows < batchSize) {
          break;
        }
      }
    } catch (SQLException e) {
      throw failed("clean up", e);
    }
    return deleted;
  }

  /** Every row of the minutes from {@code from} (inclusive) to {@code to} (exclusive). */
  public List<ConsoleMinute> read(Instant from, Instant to) {
    String select =
        "SELECT minute_at, signal_name, series, reading FROM console_minute"
            + " WHERE minute_at >= ? AND minute_at < ?";
    List<ConsoleMinute> rows = new ArrayList<>();
    try (Connection connection = dataSource.getConnection();
        PreparedStatement read = connection.prepareStatement(select)) {
      read.setObject(1, at(from));
      read.setObject(2, at(to));
      try (ResultSet rs = read.executeQuery()) {
        while (rs.next()) {
          rows.add(
              new ConsoleMinute(
                  rs.getObject(1, OffsetDateTime.class).toInstant(),
                  rs.getString(2),
                  rs.getString(3),
                  rs.getLong(4)));
        }
      }
    } catch (SQLException e) {
      throw failed("read", e);
    }
    return rows;
  }

  private ConsoleMinuteSql sql() {
    ConsoleMinuteSql known = sql;
    if (known == null) {
      try (Connection connection = dataSource.getConnection()) {
        known = ConsoleMinuteSql.forProduct(connection.getMetaData().getDatabaseProductName());
      } catch (SQLException e) {
        throw failed("reach", e);
      }
      sql = known;
    }
    return known;
  }

  private static OffsetDateTime at(Instant instant) {
    return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
  }

  private static IllegalStateException failed(String what, SQLException e) {
    return new IllegalStateException(
        "cannot " + what + " the console's minutes: " + e.getMessage(), e);
  }
}
