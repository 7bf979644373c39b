package com.banhang.idempotency.jdbc;

import com.banhang.idempotency.BodyResealBatch;
import com.banhang.idempotency.BodyResealRun;
import com.banhang.idempotency.ClaimedKey;
import com.banhang.idempotency.IdempotencyRecord;
import com.banhang.idempotency.IdempotencyStoreUnavailableException;
import com.banhang.idempotency.KeyStatistics;
import com.banhang.idempotency.PartitionRetention;
import com.banhang.idempotency.ProcessingPage;
import com.banhang.idempotency.ProcessingQuery;
import com.banhang.idempotency.PurgeRun;
import com.banhang.idempotency.spi.IdempotencyStoreAdministration;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The administration SPI over JDBC, for every database: the statements are written once here, and
 * each database's differences (its clock, date arithmetic, typed parameters, table hints, the
 * purge's statement, the size query) come from the hooks of the {@link JdbcIdempotencyStore}
 * subclass it belongs to, so that they stay in that one class. It shares that store's data source,
 * body cipher and statement bound, whatever they are set to when a call is made. Get it from {@link
 * JdbcIdempotencyStore#administration()}.
 *
 * <p>Like the store, no statement binds a time taken from this server's clock.
 */
public final class JdbcIdempotencyStoreAdministration implements IdempotencyStoreAdministration {

  private final JdbcIdempotencyStore store;

  JdbcIdempotencyStoreAdministration(JdbcIdempotencyStore store) {
    this.store = store;
  }

  @Override
  public List<IdempotencyRecord> findProcessing(
      String operation, Duration minAge, Set<String> skipChecks, int limit) {
    if (limit <= 0) {
      return List.of();
    }
    List<Object> parameters = new ArrayList<>(List.of(operation));
    parameters.addAll(store.plusMillisParameters(-minAge.toMillis()));
    StringBuilder skip = new StringBuilder();
    if (!skipChecks.isEmpty()) {
      skip.append(" AND (last_check IS NULL OR last_check NOT IN (");
      skip.append(String.join(", ", Collections.nCopies(skipChecks.size(), "?")));
      skip.append("))");
      parameters.addAll(skipChecks.stream().sorted().toList());
    }
    parameters.add(limit);
    // Least recently checked first, so that keys whose check keeps failing cannot fill every batch
    // and starve the others: never-checked keys, then by their last check, then by claim time.
    // The CASE stands for NULLS FIRST, which SQL Server lacks; OFFSET/FETCH is understood alike by
    // SQL Server, PostgreSQL and H2. No index serves this order (the CASE hides the column), and
    // none is needed: ix_idempotency_record_processing narrows the rows to the operation's
    // processing keys past the age, a set small enough to sort.
    return store.query(
        "SELECT "
            + store.recordColumns()
            + " FROM idempotency_record"
            + store.processingReaderHints()
            + " WHERE operation = "
            + store.asciiParameter(100)
            + " AND status = 'PROCESSING'"
            + " AND created_at < "
            + store.plusMillis(store.now())
            + skip
            + " ORDER BY CASE WHEN last_checked_at IS NULL THEN 0 ELSE 1 END, last_checked_at,"
            + " created_at, tenant_id, idempotency_key OFFSET 0 ROWS FETCH NEXT ? ROWS ONLY",
        parameters.toArray());
  }

  @Override
  public boolean recordCheck(ClaimedKey claim, String check, String detail) {
    return store.executeUpdate(
            "UPDATE idempotency_record SET last_check = ?, last_check_detail = ?,"
                + " last_checked_at = "
                + store.now()
                + store.whereOwned(),
            check,
            detail == null ? null : JdbcIdempotencyStore.truncate(detail, 1000),
            claim.tenant(),
            claim.operation(),
            claim.key(),
            claim.attempt())
        == 1;
  }

  @Override
  public ProcessingPage listProcessing(ProcessingQuery filter, int offset, int limit) {
    StringBuilder where = new StringBuilder(" WHERE status = 'PROCESSING'");
    List<Object> parameters = new ArrayList<>();
    if (filter.tenant() != null) {
      where.append(" AND tenant_id = ?");
      parameters.add(filter.tenant());
    }
    if (filter.operation() != null) {
      where.append(" AND operation = ").append(store.asciiParameter(100));
      parameters.add(filter.operation());
    }
    if (ProcessingQuery.NEVER_CHECKED.equals(filter.lastCheck())) {
      where.append(" AND last_check IS NULL");
    } else if (filter.lastCheck() != null) {
      where.append(" AND last_check = ?");
      parameters.add(filter.lastCheck());
    }
    if (filter.minAge() != null) {
      where.append(" AND created_at < ").append(store.plusMillis(store.now()));
      parameters.addAll(store.plusMillisParameters(-filter.minAge().toMillis()));
    }
    if (filter.claimedFrom() != null) {
      where.append(" AND created_at >= ?");
      parameters.add(JdbcIdempotencyStore.utc(filter.claimedFrom()));
    }
    if (filter.claimedBefore() != null) {
      where.append(" AND created_at < ?");
      parameters.add(JdbcIdempotencyStore.utc(filter.claimedBefore()));
    }
    int total =
        (int)
            store.queryLong(
                "SELECT COUNT(*) FROM idempotency_record" + where, parameters.toArray());
    if (limit <= 0) {
      // A count alone: SQL Server refuses FETCH NEXT 0 ROWS, so a page of no rows is not asked.
      return new ProcessingPage(List.of(), total);
    }
    List<Object> paged = new ArrayList<>(parameters);
    paged.add(Math.max(0, offset));
    paged.add(limit);
    List<IdempotencyRecord> rows =
        store.query(
            "SELECT "
                + store.recordColumns()
                + " FROM idempotency_record"
                + where
                + orderBy(filter.sort())
                + " OFFSET ? ROWS FETCH NEXT ? ROWS ONLY",
            paged.toArray());
    return new ProcessingPage(rows, total);
  }

  /**
   * The listing's ORDER BY, one form for the three databases: the column comes from a fixed map,
   * never from the caller's text, and a nullable column sorts its empty rows last through a CASE
   * (PostgreSQL puts NULL last ascending, H2 and SQL Server first, and SQL Server has no NULLS
   * LAST). Tenant and key break ties, so consecutive pages neither overlap nor skip a row.
   */
  static String orderBy(ProcessingQuery.Sort sort) {
    String direction = sort.descending() ? " DESC" : "";
    String column =
        switch (sort.column()) {
          case TENANT -> "tenant_id";
          case OPERATION -> "operation";
          case KEY -> "idempotency_key";
          case CLAIMED_AT -> "created_at";
          case LEASE_UNTIL -> "locked_until";
          case ATTEMPT -> "attempt";
          case OUTCOME_UNKNOWN -> "CASE WHEN outcome IS NULL THEN 0 ELSE 1 END";
          case LAST_CHECK -> "last_check";
          case LAST_CHECKED_AT -> "last_checked_at";
        };
    boolean nullable =
        sort.column() == ProcessingQuery.Column.LAST_CHECK
            || sort.column() == ProcessingQuery.Column.LAST_CHECKED_AT;
    return " ORDER BY "
        + (nullable ? "CASE WHEN " + column + " IS NULL THEN 1 ELSE 0 END, " : "")
        + column
        + direction
        + ", tenant_id, idempotency_key";
  }

  @Override
  public KeyStatistics statistics() {
    KeyStatistics.AgeBucket[] buckets = KeyStatistics.AgeBucket.values();
    StringBuilder bucketCase = new StringBuilder("CASE");
    List<Object> parameters = new ArrayList<>();
    for (int i = 0; i < buckets.length - 1; i++) {
      bucketCase
          .append(" WHEN created_at > ")
          .append(store.plusMillis(store.now()))
          .append(" THEN ")
          .append(i);
      parameters.addAll(store.plusMillisParameters(-buckets[i].upperBound().toMillis()));
    }
    bucketCase.append(" ELSE ").append(buckets.length - 1).append(" END");
    // A derived table, because SQL Server cannot GROUP BY a select-list alias.
    List<KeyStatistics.BucketCount> bucketCounts = new ArrayList<>();
    List<KeyStatistics.StatusGroup> groups = new ArrayList<>();
    Map<String, Long> expired = new LinkedHashMap<>();
    Instant takenAt;
    try (Connection connection = store.dataSource.getConnection()) {
      takenAt = store.databaseNow(connection);
      try (PreparedStatement statement =
          connection.prepareStatement(
              "SELECT operation, status, bucket, COUNT(*) FROM (SELECT operation, status, "
                  + bucketCase
                  + " AS bucket FROM idempotency_record) r GROUP BY operation, status, bucket"
                  + " ORDER BY operation, status, bucket")) {
        JdbcIdempotencyStore.bind(statement, parameters.toArray());
        try (ResultSet rs = statement.executeQuery()) {
          while (rs.next()) {
            bucketCounts.add(
                new KeyStatistics.BucketCount(
                    rs.getString(1),
                    IdempotencyRecord.Status.valueOf(rs.getString(2).trim()),
                    buckets[rs.getInt(3)],
                    rs.getLong(4)));
          }
        }
      }
      try (PreparedStatement statement =
              connection.prepareStatement(
                  "SELECT operation, status, COUNT(*), MIN(created_at) FROM idempotency_record"
                      + " GROUP BY operation, status ORDER BY operation, status");
          ResultSet rs = statement.executeQuery()) {
        while (rs.next()) {
          groups.add(
              new KeyStatistics.StatusGroup(
                  rs.getString(1),
                  IdempotencyRecord.Status.valueOf(rs.getString(2).trim()),
                  rs.getLong(3),
                  JdbcIdempotencyStore.instant(rs, 4)));
        }
      }
      try (PreparedStatement statement =
          connection.prepareStatement(
              "SELECT operation, COUNT(*) FROM idempotency_record WHERE status = 'PROCESSING'"
                  + " AND locked_until <= "
                  + store.now()
                  + " GROUP BY operation ORDER BY operation")) {
        try (ResultSet rs = statement.executeQuery()) {
          while (rs.next()) {
            expired.put(rs.getString(1), rs.getLong(2));
          }
        }
      }
    } catch (SQLException e) {
      throw JdbcIdempotencyStore.unavailable("cannot count the idempotency store", e);
    }
    return new KeyStatistics(takenAt, bucketCounts, groups, expired);
  }

  @Override
  public OptionalLong tableSizeBytes() {
    String sql = store.tableSizeQuery();
    if (sql == null) {
      return OptionalLong.empty();
    }
    try {
      long bytes = store.queryLong(sql);
      // H2 answers 0 for a database held in memory: that is "not known", not "empty".
      return bytes > 0 ? OptionalLong.of(bytes) : OptionalLong.empty();
    } catch (RuntimeException e) {
      // A database that refuses to tell (permissions) is not an error for the console.
      return OptionalLong.empty();
    }
  }

  @Override
  public void recordPurgeRun(PurgeRun run) {
    store.executeUpdate(
        "INSERT INTO idempotency_purge_run (started_at, node, started_by, rows_deleted,"
            + " duration_ms, method, partitions_dropped) VALUES (?, ?, ?, ?, ?, ?, ?)",
        JdbcIdempotencyStore.utc(run.startedAt()),
        JdbcIdempotencyStore.truncate(run.node(), 255),
        JdbcIdempotencyStore.truncate(run.startedBy(), 100),
        run.rowsDeleted(),
        run.durationMillis(),
        run.method(),
        run.partitionsDropped());
  }

  @Override
  public List<PurgeRun> recentPurgeRuns(int limit) {
    if (limit <= 0) {
      return List.of();
    }
    try (Connection connection = store.dataSource.getConnection();
        PreparedStatement statement =
            connection.prepareStatement(
                "SELECT started_at, node, started_by, rows_deleted, duration_ms, method,"
                    + " partitions_dropped FROM idempotency_purge_run ORDER BY started_at DESC, id DESC"
                    + " OFFSET 0 ROWS FETCH NEXT ? ROWS ONLY")) {
      JdbcIdempotencyStore.bind(statement, limit);
      List<PurgeRun> runs = new ArrayList<>();
      try (ResultSet rs = statement.executeQuery()) {
        while (rs.next()) {
          runs.add(
              new PurgeRun(
                  JdbcIdempotencyStore.instant(rs, 1),
                  rs.getString(2),
                  rs.getString(3),
                  rs.getInt(4),
                  rs.getLong(5),
                  rs.getString(6) == null ? PurgeRun.BATCHED : rs.getString(6).trim(),
                  rs.getInt(7)));
        }
      }
      return runs;
    } catch (SQLException e) {
      throw JdbcIdempotencyStore.unavailable("cannot read the purge runs", e);
    }
  }

  /** A row a re-seal batch read: its key, the attempt and the exact bytes it held then. */
  private record SealedRow(
      String tenant, String operation, String key, int attempt, byte[] body, String keyId) {}

  /**
   * Reads outside any transaction, opens and seals in memory, then writes the batch in one short
   * transaction, in primary-key order so that two nodes re-sealing at once lock rows in the same
   * order and never deadlock. Each UPDATE compares the bytes it read: every seal has a random
   * nonce, so a completion or another re-seal in between always changes them.
   */
  @Override
  public BodyResealBatch resealBodies(int batchSize) {
    ResponseBodyCipher cipher = store.cipher();
    List<byte[]> prefixes = cipher.oldKeyPrefixes();
    if (prefixes.isEmpty()) {
      return new BodyResealBatch(cipher.sealingKeyId(), 0, 0, 0, Map.of(), 0);
    }
    if (batchSize <= 0) {
      return new BodyResealBatch(
          cipher.sealingKeyId(), 0, 0, 0, Map.of(), countBodiesWithOldKeys());
    }
    List<SealedRow> rows = readSealedWithOldKeys(prefixes, batchSize);
    int unreadable = 0;
    List<SealedRow> readable = new ArrayList<>();
    List<byte[]> resealedBodies = new ArrayList<>();
    for (SealedRow row : rows) {
      try {
        resealedBodies.add(cipher.reseal(row.body(), row.tenant(), row.operation(), row.key()));
        readable.add(row);
      } catch (IdempotencyStoreUnavailableException e) {
        unreadable++;
      }
    }
    Map<String, Integer> from = new TreeMap<>();
    int changed = 0;
    if (!readable.isEmpty()) {
      boolean[] written = writeResealed(readable, resealedBodies);
      for (int i = 0; i < written.length; i++) {
        if (written[i]) {
          from.merge(readable.get(i).keyId(), 1, Integer::sum);
        } else {
          changed++;
        }
      }
    }
    int resealed = readable.size() - changed;
    return new BodyResealBatch(
        cipher.sealingKeyId(), resealed, changed, unreadable, from, countBodiesWithOldKeys());
  }

  private List<SealedRow> readSealedWithOldKeys(List<byte[]> prefixes, int batchSize) {
    List<Object> parameters = new ArrayList<>(prefixes);
    parameters.add(batchSize);
    // OFFSET/FETCH is understood alike by SQL Server, PostgreSQL and H2. The reader skips rows
    // others hold locked where the database can (SQL Server): a row being completed is left to
    // the next batch rather than waited for.
    try (Connection connection = store.dataSource.getConnection();
        PreparedStatement statement =
            store.prepareBounded(
                connection,
                "SELECT tenant_id, operation, idempotency_key, attempt, response_body"
                    + " FROM idempotency_record"
                    + store.processingReaderHints()
                    + " WHERE "
                    + sealedWithOneOf(prefixes)
                    + " ORDER BY tenant_id, operation, idempotency_key"
                    + " OFFSET 0 ROWS FETCH NEXT ? ROWS ONLY")) {
      JdbcIdempotencyStore.bind(statement, parameters.toArray());
      List<SealedRow> rows = new ArrayList<>();
      try (ResultSet rs = statement.executeQuery()) {
        while (rs.next()) {
          byte[] body = rs.getBytes(5);
          rows.add(
              new SealedRow(
                  rs.getString(1),
                  rs.getString(2),
                  rs.getString(3),
                  rs.getInt(4),
                  body,
                  ResponseBodyCipher.keyIdOf(body)));
        }
      }
      return rows;
    } catch (SQLException e) {
      throw JdbcIdempotencyStore.unavailable("cannot read the bodies to re-seal", e);
    }
  }

  /**
   * Writes the re-sealed bodies in one transaction of its own; which rows were written. Refused on
   * a connection that already belongs to a caller's transaction: the batch must commit on its own,
   * so that its locks are held for one batch only.
   */
  private boolean[] writeResealed(List<SealedRow> rows, List<byte[]> bodies) {
    boolean[] written = new boolean[rows.size()];
    try (Connection connection = store.dataSource.getConnection()) {
      if (!connection.getAutoCommit()) {
        throw new SQLException(
            "a re-seal batch commits on its own: run it outside any transaction", "25000");
      }
      connection.setAutoCommit(false);
      try (PreparedStatement update =
          store.prepareBounded(
              connection,
              "UPDATE idempotency_record SET response_body = ? WHERE "
                  + store.keyMatch()
                  + " AND attempt = ? AND response_body = ?")) {
        for (int i = 0; i < rows.size(); i++) {
          SealedRow row = rows.get(i);
          JdbcIdempotencyStore.bind(
              update,
              bodies.get(i),
              row.tenant(),
              row.operation(),
              row.key(),
              row.attempt(),
              row.body());
          written[i] = update.executeUpdate() == 1;
        }
        connection.commit();
      } catch (SQLException | RuntimeException e) {
        connection.rollback();
        throw e;
      } finally {
        connection.setAutoCommit(true);
      }
    } catch (SQLException e) {
      throw JdbcIdempotencyStore.unavailable("cannot write the re-sealed bodies", e);
    }
    return written;
  }

  @Override
  public long countBodiesWithOldKeys() {
    List<byte[]> prefixes = store.cipher().oldKeyPrefixes();
    if (prefixes.isEmpty()) {
      return 0;
    }
    return store.queryLong(
        "SELECT COUNT(*) FROM idempotency_record WHERE " + sealedWithOneOf(prefixes),
        prefixes.toArray());
  }

  /**
   * The body starts with one of {@code prefixes}, each a placeholder. SUBSTRING of a binary column
   * is binary on every database here (varbinary(max), bytea, H2's BLOB); the lengths are the
   * prefixes' own, never a value from outside.
   */
  private static String sealedWithOneOf(List<byte[]> prefixes) {
    StringBuilder where = new StringBuilder("response_body IS NOT NULL AND (");
    for (int i = 0; i < prefixes.size(); i++) {
      where
          .append(i == 0 ? "" : " OR ")
          .append("SUBSTRING(response_body, 1, ")
          .append(prefixes.get(i).length)
          .append(") = ?");
    }
    return where.append(")").toString();
  }

  @Override
  public void recordResealRun(BodyResealRun run) {
    store.executeUpdate(
        "INSERT INTO idempotency_reseal_run (started_at, node, started_by, from_key_ids,"
            + " to_key_id, rows_resealed, rows_changed, rows_unreadable, rows_remaining, status,"
            + " detail, duration_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        JdbcIdempotencyStore.utc(run.startedAt()),
        JdbcIdempotencyStore.truncate(run.node(), 255),
        JdbcIdempotencyStore.truncate(run.startedBy(), 100),
        JdbcIdempotencyStore.truncate(run.fromKeyIdsText(), 400),
        run.toKeyId(),
        run.rowsResealed(),
        run.rowsChangedMeanwhile(),
        run.rowsUnreadable(),
        run.rowsRemaining(),
        run.status().name(),
        run.detail() == null ? null : JdbcIdempotencyStore.truncate(run.detail(), 1000),
        run.durationMillis());
  }

  @Override
  public List<BodyResealRun> recentResealRuns(int limit) {
    if (limit <= 0) {
      return List.of();
    }
    try (Connection connection = store.dataSource.getConnection();
        PreparedStatement statement =
            connection.prepareStatement(
                "SELECT started_at, node, started_by, from_key_ids, to_key_id, rows_resealed,"
                    + " rows_changed, rows_unreadable, rows_remaining, status, detail,"
                    + " duration_ms FROM idempotency_reseal_run ORDER BY started_at DESC, id DESC"
                    + " OFFSET 0 ROWS FETCH NEXT ? ROWS ONLY")) {
      JdbcIdempotencyStore.bind(statement, limit);
      List<BodyResealRun> runs = new ArrayList<>();
      try (ResultSet rs = statement.executeQuery()) {
        while (rs.next()) {
          String from = rs.getString(4);
          runs.add(
              new BodyResealRun(
                  JdbcIdempotencyStore.instant(rs, 1),
                  rs.getString(2),
                  rs.getString(3),
                  from == null || from.isEmpty()
                      ? Set.of()
                      : new TreeSet<>(List.of(from.split(","))),
                  rs.getString(5),
                  rs.getInt(6),
                  rs.getInt(7),
                  rs.getInt(8),
                  rs.getLong(9),
                  BodyResealRun.Status.valueOf(rs.getString(10).trim()),
                  rs.getString(11),
                  rs.getLong(12)));
        }
      }
      return runs;
    } catch (SQLException e) {
      throw JdbcIdempotencyStore.unavailable("cannot read the re-seal runs", e);
    }
  }

  /** One batch, by the store's own statement: each database bounds a DELETE its own way. */
  @Override
  public int purgeExpired(int batchSize) {
    return store.purgeExpiredBatch(batchSize);
  }

  @Override
  public PartitionRetention retainByPartitions(int daysAhead, Duration lockWait) {
    return store.retainByPartitions(daysAhead, lockWait);
  }
}
