package com.banhang.idempotency.jdbc;

import com.banhang.idempotency.PartitionRetention;
import com.banhang.idempotency.spi.IdempotencyStore.ClaimRequest;
import com.banhang.idempotency.spi.IdempotencyStore.ClaimResult;
import com.banhang.idempotency.spi.KeyBusyException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * PostgreSQL: the claim is the function {@code idempotency_claim} (sql/postgresql), an advisory
 * lock on the key, then an insert or the takeover rules, in one statement's transaction.
 *
 * <p>The key table is partitioned by expiry day from V22 on (docs/scaling.md, "Retention by
 * partition"); the store finds out at each retention run whether it is, and falls back to the
 * batched purge of the whole table when it is not (a schema of its own, before V22).
 */
public class PostgresIdempotencyStore extends JdbcIdempotencyStore {

  /** lock_timeout ran out. */
  private static final String LOCK_NOT_AVAILABLE = "55P03";

  private static final String SERIALIZATION_FAILURE = "40001";

  public PostgresIdempotencyStore(DataSource dataSource) {
    super(dataSource);
  }

  @Override
  public ClaimResult claim(ClaimRequest request) {
    refuseCallersTransaction();
    // clock_timestamp() here is read after the function ran: the database's clock at the read.
    String sql =
        "SELECT won, "
            + COLUMNS
            + ", clock_timestamp() FROM idempotency_claim(?, ?, ?, ?, ?, ?, ?)";
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement = connection.prepareStatement(sql)) {
      requireAutoCommit(connection);
      bind(statement, claimParameters(request));
      try (ResultSet rs = statement.executeQuery()) {
        if (!rs.next()) {
          throw new SQLException("idempotency_claim returned no row");
        }
        return new ClaimResult(rs.getBoolean(1), readRecord(rs, 2, null));
      }
    } catch (SQLException e) {
      throw unavailable("cannot claim a key", e);
    }
  }

  /**
   * The function {@code idempotency_claim_in_transaction} (sql/postgresql V8): a transaction-scoped
   * advisory lock on the key, then a read of its row, in one round trip; nothing is written until
   * {@link #completeInTransaction}.
   */
  @Override
  public ClaimResult claimInTransaction(ClaimRequest request, Duration lockWait) {
    requireCallersTransaction();
    String sql =
        "SELECT won, "
            + COLUMNS
            + ", read_at FROM idempotency_claim_in_transaction(?, ?, ?, ?, ?, ?, ?, ?)";
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement = connection.prepareStatement(sql)) {
      bind(statement, claimParameters(request, Math.max(1, lockWait.toMillis())));
      try (ResultSet rs = statement.executeQuery()) {
        if (!rs.next()) {
          throw new SQLException("idempotency_claim_in_transaction returned no row");
        }
        return new ClaimResult(rs.getBoolean(1), readRecord(rs, 2, null));
      }
    } catch (SQLException e) {
      if (LOCK_NOT_AVAILABLE.equals(e.getSQLState())) {
        throw new KeyBusyException("the key stayed held longer than " + lockWait, e);
      }
      throw unavailable("cannot claim a key", e);
    }
  }

  @Override
  protected String purgeExpiredStatement() {
    return "DELETE FROM idempotency_record WHERE ctid IN (SELECT ctid FROM idempotency_record"
        + " WHERE status IN ('COMPLETED', 'RELEASED') AND expires_at < "
        + now()
        + " LIMIT ?)";
  }

  /**
   * On a partitioned table, the batch deletes only from the partitions that no drop will take whole
   * while their rows are still young: the default partition and the legacy one (V22). A {@code
   * ctid} names a row within one partition only, so each partition gets its own statement: one ctid
   * list over the parent would match rows of other partitions too, processing rows among them.
   */
  @Override
  protected int purgeExpiredBatch(int batchSize) {
    if (!partitioned()) {
      return super.purgeExpiredBatch(batchSize);
    }
    int deleted = 0;
    for (String partition :
        names(
            "SELECT partition_name FROM idempotency_partitions()"
                + " WHERE is_default OR partition_name !~ '^idempotency_record_p[0-9]{8}$'")) {
      if (deleted >= batchSize) {
        break;
      }
      String table = quoteIdentifier(partition);
      deleted +=
          executeUpdate(
              "DELETE FROM "
                  + table
                  + " WHERE ctid IN (SELECT ctid FROM "
                  + table
                  + " WHERE status IN ('COMPLETED', 'RELEASED') AND expires_at < "
                  + now()
                  + " LIMIT ?)",
              batchSize - deleted);
    }
    return deleted;
  }

  /**
   * The days ahead first (an existing day answers at once), then each partition whose range ended:
   * detached with its processing rows given back in one transaction, then counted and dropped in
   * another. Every step is a function of V22 that takes the maintenance lock, so that of several
   * nodes running it at once one does the work and the others skip; a detached table whose drop did
   * not happen (the node stopped) is dropped by the next run.
   */
  @Override
  protected PartitionRetention retainByPartitions(int daysAhead, Duration lockWait) {
    if (!partitioned()) {
      return PartitionRetention.NOT_PARTITIONED;
    }
    long waitMillis = Math.max(1, lockWait.toMillis());
    List<String> skipped = new ArrayList<>();
    int created = 0;
    for (int day = 0; day <= daysAhead; day++) {
      String answer =
          names(
                  "SELECT idempotency_partition_create("
                      + "CAST((now() AT TIME ZONE 'UTC') AS date) + ?, ?)",
                  day,
                  waitMillis)
              .get(0);
      if ("created".equals(answer)) {
        created++;
      } else if ("occupied".equals(answer)) {
        skipped.add("day +" + day + " has no partition: the default partition holds rows of it");
      } else if ("busy".equals(answer)) {
        skipped.add("partitions ahead: another node maintains them, or a lock was not had");
        break;
      }
    }
    long kept = 0;
    for (String partition :
        names(
            "SELECT partition_name FROM idempotency_partitions()"
                + " WHERE NOT is_default AND range_end <= now()")) {
      Long given = nullableLong("SELECT idempotency_partition_detach(?, ?)", partition, waitMillis);
      if (given == null) {
        skipped.add(partition + ": another node maintains it, or a lock was not had");
      } else {
        kept += given;
      }
    }
    int dropped = 0;
    long rows = 0;
    for (String detached :
        names(
            "SELECT relname FROM pg_class WHERE relkind = 'r'"
                + " AND relname LIKE 'idempotency\\_record\\_detached\\_%'"
                + " AND relnamespace = to_regnamespace(current_schema())")) {
      Long finished = nullableLong("SELECT idempotency_partition_drop(?)", detached);
      if (finished == null) {
        skipped.add(detached + ": another node drops it");
      } else if (finished >= 0) {
        dropped++;
        rows += finished;
      }
    }
    return new PartitionRetention(true, created, dropped, rows, kept, skipped);
  }

  /** Whether the key table is partitioned, asked each time: a DBA may convert it at any moment. */
  boolean partitioned() {
    return queryLong(
            "SELECT COUNT(*) FROM pg_partitioned_table"
                + " WHERE partrelid = to_regclass('idempotency_record')")
        > 0;
  }

  private List<String> names(String sql, Object... parameters) {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement = prepareBounded(connection, sql)) {
      bind(statement, parameters);
      List<String> names = new ArrayList<>();
      try (ResultSet rs = statement.executeQuery()) {
        while (rs.next()) {
          names.add(rs.getString(1));
        }
      }
      return names;
    } catch (SQLException e) {
      throw unavailable("cannot maintain the partitions of the idempotency store", e);
    }
  }

  private Long nullableLong(String sql, Object... parameters) {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement = prepareBounded(connection, sql)) {
      bind(statement, parameters);
      try (ResultSet rs = statement.executeQuery()) {
        rs.next();
        long value = rs.getLong(1);
        return rs.wasNull() ? null : value;
      }
    } catch (SQLException e) {
      throw unavailable("cannot maintain the partitions of the idempotency store", e);
    }
  }

  private static String quoteIdentifier(String name) {
    return '"' + name.replace("\"", "\"\"") + '"';
  }

  /**
   * In READ COMMITTED, PostgreSQL raises a serialization failure on a write only when the row it
   * waited for was moved to another partition by a concurrent UPDATE (a takeover that changed the
   * expiry); the message says so, and is checked too, so that no other failure is read as this.
   */
  @Override
  protected boolean rowMovedByConcurrentUpdate(SQLException e) {
    return SERIALIZATION_FAILURE.equals(e.getSQLState())
        && e.getMessage() != null
        && e.getMessage().contains("moved to another partition");
  }

  /** The start of the current statement: one "now" for the whole statement, unlike now(). */
  @Override
  protected String now() {
    return "statement_timestamp()";
  }

  @Override
  protected String plusMillis(String timestamp) {
    return "(" + timestamp + " + CAST(? AS bigint) * interval '1 millisecond')";
  }

  @Override
  protected String tableSizeQuery() {
    // A partitioned table holds no rows itself: its partitions do. pg_partition_tree lists no row
    // for a plain table, whose own size is then the answer.
    return "SELECT COALESCE(SUM(pg_total_relation_size(relid)),"
        + " pg_total_relation_size('idempotency_record'))"
        + " FROM pg_partition_tree('idempotency_record')";
  }
}
