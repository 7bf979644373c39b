package com.banhang.idempotency.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.banhang.idempotency.ClaimedKey;
import com.banhang.idempotency.IdempotencyRecord;
import com.banhang.idempotency.ProcessingQuery;
import com.banhang.idempotency.StoredResponse;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The statements SQL Server's store sends, recorded by a data source that answers without a
 * database (none runs where this project is built) and checked against the rules SQL Server holds
 * and PostgreSQL and H2 do not, so that the normal build catches what only a SQL Server would
 * refuse or run badly (docs/sqlserver.md, "Second review"). Whether SQL Server accepts the
 * statements is for {@code it-sqlserver} to say.
 */
class SqlServerStatementsTest {

  private static final String TENANT = "alice";
  private static final String OPERATION = "orders.create";
  private static final String KEY = "k-1";

  /** One statement as the store prepared and ran it. */
  record Sent(String sql, Map<Integer, Object> parameters, int queryTimeoutSeconds) {}

  private final List<Sent> sent = new ArrayList<>();
  private SqlServerIdempotencyStore store;

  @BeforeEach
  void store() {
    store = new SqlServerIdempotencyStore(recordingDataSource());
  }

  @Test
  void aPageOfNoRows_isNeverAskedFor() {
    store.administration().listProcessing(new ProcessingQuery(null, OPERATION, null, null), 0, 0);
    store
        .administration()
        .listProcessing(new ProcessingQuery(TENANT, null, null, Duration.ofMinutes(1)), 5, 0);
    store.administration().findProcessing(OPERATION, Duration.ofMinutes(1), Set.of(), 0);
    store.administration().recentPurgeRuns(0);
    store.administration().listProcessing(new ProcessingQuery(null, null, null, null), 0, 10);

    assertThat(sent).isNotEmpty();
    for (Sent statement : sent) {
      assertThat(statement.sql())
          .as(statement.sql())
          .doesNotContainPattern("(?i)FETCH\\s+NEXT\\s+0\\s+ROWS");
      int fetch = placeholderBefore(statement.sql(), "FETCH NEXT ?");
      if (fetch > 0) {
        assertThat(((Number) statement.parameters().get(fetch)).intValue())
            .as("FETCH NEXT of " + statement.sql())
            .isPositive();
      }
    }
    // The page of ten rows was asked for: the check above saw a FETCH.
    assertThat(sent).anyMatch(s -> s.sql().contains("FETCH NEXT ?"));
  }

  @Test
  void operationAndKey_areComparedAsVarchar_neverAsTheNvarcharTheDriverSends() {
    everyStatementOfAKeysLife();

    List<String> comparisons = new ArrayList<>();
    for (Sent statement : sent) {
      Matcher m =
          Pattern.compile(
                  "\\b(operation|idempotency_key)\\s*=\\s*(CAST\\(\\?[^()]*(?:\\(\\d+\\))?\\)|\\?|\\S+)")
              .matcher(statement.sql());
      while (m.find()) {
        comparisons.add(m.group(1) + " = " + m.group(2));
      }
    }
    assertThat(comparisons).isNotEmpty();
    assertThat(comparisons)
        .allSatisfy(
            c ->
                assertThat(c)
                    .matches(
                        "operation = CAST\\(\\? AS varchar\\(101\\)\\)|"
                            + "idempotency_key = CAST\\(\\? AS varchar\\(256\\)\\)"));
  }

  @Test
  void lockedRowsAreSkipped_withHintsValidWhetherReadCommittedSnapshotIsOnOrOff() {
    store.administration().purgeExpired(100);
    store.administration().findProcessing(OPERATION, Duration.ofMinutes(1), Set.of(), 10);

    assertThat(sent).hasSize(2);
    for (Sent statement : sent) {
      assertThat(statement.sql()).contains("WITH (READCOMMITTEDLOCK, READPAST)");
      // ROWLOCK is a granularity hint like READCOMMITTEDLOCK: SQL Server refuses the two together.
      assertThat(statement.sql()).doesNotContain("ROWLOCK");
    }
    // No query of the database's settings: a flag read once would go stale.
    assertThat(sent).noneMatch(s -> s.sql().contains("is_read_committed_snapshot_on"));
  }

  @Test
  void fullTokenBuckets_arePurgedPastHeldRows_withTheSameHints_batchSizeThenTime() {
    long before = System.currentTimeMillis();
    new SelectForUpdateTokenBuckets(
            recordingDataSource(),
            SelectForUpdateTokenBuckets.Dialect.SQL_SERVER,
            Duration.ofSeconds(1),
            ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(Duration.ZERO))
        .removeExpired(250);

    assertThat(sent).hasSize(1);
    Sent purge = sent.get(0);
    assertThat(purge.sql())
        .startsWith("DELETE TOP (?) FROM dbo.idempotency_new_key_bucket")
        .contains("WITH (READCOMMITTEDLOCK, READPAST)")
        .doesNotContain("ROWLOCK")
        .endsWith("WHERE expires_at < ?");
    assertThat(purge.parameters()).containsEntry(1, 250);
    assertThat((Long) purge.parameters().get(2))
        .isBetween(before, System.currentTimeMillis()); // milliseconds since 1970, as written
  }

  @Test
  void reconciliationsReader_leastRecentlyCheckedFirst_withoutNullsFirst() {
    store.administration().findProcessing(OPERATION, Duration.ofMinutes(1), Set.of(), 10);

    assertThat(sent).hasSize(1);
    String sql = sent.get(0).sql();
    // SQL Server has no NULLS FIRST: never-checked rows come first through a CASE sort key.
    assertThat(sql).doesNotContainIgnoringCase("NULLS");
    assertThat(sql)
        .contains(
            "ORDER BY CASE WHEN last_checked_at IS NULL THEN 0 ELSE 1 END, last_checked_at,"
                + " created_at");
  }

  @Test
  void everyWriteAndReadOfAKey_isBoundedByAQueryTimeout() {
    store.boundingStatementsBy(Duration.ofMillis(2500));
    everyStatementOfAKeysLife();

    assertThat(sent).hasSizeGreaterThanOrEqualTo(7);
    assertThat(sent).allSatisfy(s -> assertThat(s.queryTimeoutSeconds()).as(s.sql()).isEqualTo(3));
  }

  @Test
  void aKeyThatIsNotPrintableAscii_isNotLookedUp_sinceVarcharWouldTurnItIntoQuestionMarks() {
    assertThat(store.find(TENANT, OPERATION, "caf\u00e9")).isEmpty();
    assertThat(store.find(TENANT, OPERATION, "a b")).isEmpty();
    assertThat(sent).isEmpty();
  }

  private void everyStatementOfAKeysLife() {
    ClaimedKey claim = new ClaimedKey(TENANT, OPERATION, KEY, 2);
    StoredResponse response = new StoredResponse(201, Map.of(), new byte[] {1});
    store.complete(claim, response);
    store.markOutcomeUnknown(claim, response);
    store.release(claim);
    store.administration().recordCheck(claim, "UNKNOWN", "no answer");
    store.find(TENANT, OPERATION, KEY);
    Instant now = Instant.now();
    IdempotencyRecord takeover =
        new IdempotencyRecord(
            TENANT,
            OPERATION,
            KEY,
            "a".repeat(64),
            IdempotencyRecord.Status.PROCESSING,
            false,
            2,
            now,
            now,
            null,
            now,
            null,
            null,
            null,
            null,
            now);
    store.completeInTransaction(takeover, response);
    store.administration().findProcessing(OPERATION, Duration.ofMinutes(1), Set.of(), 10);
    store
        .administration()
        .listProcessing(new ProcessingQuery(TENANT, OPERATION, null, null), 0, 10);
  }

  /** The number (from 1) of the placeholder just before {@code marker}, or 0 without it. */
  private static int placeholderBefore(String sql, String marker) {
    int at = sql.indexOf(marker);
    if (at < 0) {
      return 0;
    }
    int end = at + marker.length();
    return (int) sql.substring(0, end).chars().filter(c -> c == '?').count();
  }

  private DataSource recordingDataSource() {
    InvocationHandler dataSource =
        (proxy, method, args) ->
            switch (method.getName()) {
              case "getConnection" -> connection();
              case "unwrap", "isWrapperFor" -> throw new UnsupportedOperationException();
              default -> null;
            };
    return (DataSource)
        Proxy.newProxyInstance(
            getClass().getClassLoader(), new Class<?>[] {DataSource.class}, dataSource);
  }

  private Connection connection() {
    InvocationHandler connection =
        (proxy, method, args) ->
            switch (method.getName()) {
              case "prepareStatement", "prepareCall" -> statement((String) args[0]);
              case "getAutoCommit" -> true;
              case "isClosed" -> false;
              default -> null;
            };
    return (Connection)
        Proxy.newProxyInstance(
            getClass().getClassLoader(), new Class<?>[] {Connection.class}, connection);
  }

  private PreparedStatement statement(String sql) {
    Map<Integer, Object> parameters = new TreeMap<>();
    int[] timeout = {0};
    InvocationHandler statement =
        (proxy, method, args) ->
            switch (method.getName()) {
              case "setObject", "setString", "setInt", "setLong", "setBytes", "setBoolean" -> {
                parameters.put((Integer) args[0], args[1]);
                yield null;
              }
              case "setNull" -> {
                parameters.put((Integer) args[0], null);
                yield null;
              }
              case "setQueryTimeout" -> {
                timeout[0] = (Integer) args[0];
                yield null;
              }
              case "executeUpdate" -> {
                sent.add(new Sent(sql, parameters, timeout[0]));
                yield 1;
              }
              case "executeQuery" -> {
                sent.add(new Sent(sql, parameters, timeout[0]));
                yield resultSet(sql.startsWith("SELECT COUNT(*)") ? 1 : 0);
              }
              default -> null;
            };
    return (PreparedStatement)
        Proxy.newProxyInstance(
            getClass().getClassLoader(), new Class<?>[] {CallableStatement.class}, statement);
  }

  /** {@code rows} rows whose every column reads as 0, or as the epoch for a timestamp. */
  private ResultSet resultSet(int rows) {
    int[] read = {0};
    InvocationHandler resultSet =
        (proxy, method, args) ->
            switch (method.getName()) {
              case "next" -> read[0]++ < rows;
              case "getLong" -> 0L;
              case "getInt" -> 0;
              case "getObject" -> OffsetDateTime.of(1970, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC);
              default -> null;
            };
    return (ResultSet)
        Proxy.newProxyInstance(
            getClass().getClassLoader(), new Class<?>[] {ResultSet.class}, resultSet);
  }
}
