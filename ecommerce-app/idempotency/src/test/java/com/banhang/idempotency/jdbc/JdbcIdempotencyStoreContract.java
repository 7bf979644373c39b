package com.banhang.idempotency.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.banhang.idempotency.ClaimedKey;
import com.banhang.idempotency.IdempotencyKeys;
import com.banhang.idempotency.IdempotencyRecord;
import com.banhang.idempotency.IdempotencyStoreUnavailableException;
import com.banhang.idempotency.KeyStatistics;
import com.banhang.idempotency.ProcessingQuery;
import com.banhang.idempotency.SharedConnection;
import com.banhang.idempotency.SkewedDataSource;
import com.banhang.idempotency.internal.RecordsOver;
import com.banhang.idempotency.spi.IdempotencyStore;
import com.banhang.idempotency.spi.IdempotencyStore.ClaimRequest;
import com.banhang.idempotency.spi.IdempotencyStore.ClaimResult;
import com.banhang.idempotency.spi.IdempotencyStoreContract;
import com.banhang.idempotency.spi.KeyBusyException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The store contract on a database, run against each by a subclass that supplies a migrated data
 * source: every case of the SPI's {@link IdempotencyStoreContract}, with rows aged and read in SQL,
 * and what only a database with sessions, locks and its own clock can show: the store picked for
 * the database, claims on connections with and without a transaction, several transactions on one
 * key waiting for each other, the statement bound, and every time decision taken on the database's
 * clock while the server's is skewed. Every test starts from an empty table.
 */
abstract class JdbcIdempotencyStoreContract extends IdempotencyStoreContract {

  /** The database under test, migrated; the same instance for every test of the class. */
  abstract DataSource dataSource();

  abstract Class<? extends JdbcIdempotencyStore> expectedStoreClass();

  static void migrate(DataSource dataSource, String folder) {
    String sqlDir = System.getProperty("sql.dir", "../../sql");
    Flyway.configure()
        .dataSource(dataSource)
        .locations("filesystem:" + sqlDir + "/" + folder)
        .load()
        .migrate();
  }

  @Override
  protected StoreUnderTest emptyStore() throws SQLException {
    try (Connection connection = dataSource().getConnection();
        PreparedStatement delete = connection.prepareStatement("DELETE FROM idempotency_record")) {
      delete.executeUpdate();
    }
    JdbcIdempotencyStore jdbc = JdbcIdempotencyStore.forDataSource(dataSource());
    return new StoreUnderTest(jdbc, jdbc.administration());
  }

  @Override
  protected StoreTransaction transaction() throws SQLException {
    return new Transaction();
  }

  /** Moves the claim and the lease of every row {@code by} into the past. */
  @Override
  protected void ageAll(Duration by) throws SQLException {
    try (Connection connection = dataSource().getConnection();
        PreparedStatement update =
            connection.prepareStatement(
                "UPDATE idempotency_record SET created_at = created_at - INTERVAL '"
                    + by.toSeconds()
                    + "' SECOND, locked_until = locked_until - INTERVAL '"
                    + by.toSeconds()
                    + "' SECOND")) {
      update.executeUpdate();
    }
  }

  @Override
  protected String resourceRef(String key) throws SQLException {
    try (Connection connection = dataSource().getConnection();
        PreparedStatement select =
            connection.prepareStatement(
                "SELECT resource_ref FROM idempotency_record WHERE idempotency_key = ?")) {
      select.setString(1, key);
      try (ResultSet rs = select.executeQuery()) {
        assertThat(rs.next()).isTrue();
        return rs.getString(1);
      }
    }
  }

  // ------------------------------------------------------------------ choosing the store

  @Test
  void forDataSource_thisDatabase_picksItsStore() {
    assertThat(store).isExactlyInstanceOf(expectedStoreClass());
  }

  // ------------------------------------------------------------------ the claim's own transaction

  @Test
  void claim_outsideAnyTransaction_committedAndSeenByAnotherConnectionAtOnce() throws Exception {
    String key = newKey();
    store.claim(request(key, HASH, LONG, LONG, false));

    try (Connection other = dataSource().getConnection();
        PreparedStatement select =
            other.prepareStatement(
                "SELECT status, attempt FROM idempotency_record"
                    + " WHERE tenant_id = ? AND operation = ? AND idempotency_key = ?")) {
      select.setString(1, TENANT);
      select.setString(2, OPERATION);
      select.setString(3, key);
      try (ResultSet rs = select.executeQuery()) {
        assertThat(rs.next()).as("the claim is visible to another connection").isTrue();
        assertThat(rs.getString(1)).isEqualTo("PROCESSING");
        assertThat(rs.getInt(2)).isEqualTo(1);
      }
    }
  }

  @Test
  void claim_onAConnectionOfAnOpenTransaction_refusedAndLeavesNoRow() throws Exception {
    // A JTA transaction's connection, as a claim made inside a business transaction would get it:
    // auto-commit off, every statement in the caller's transaction.
    String key = newKey();
    try (Connection held = dataSource().getConnection()) {
      held.setAutoCommit(false);
      IdempotencyStore inTransaction = JdbcIdempotencyStore.forDataSource(singleConnection(held));

      assertThatThrownBy(() -> inTransaction.claim(request(key, HASH, LONG, LONG, false)))
          .isInstanceOf(IdempotencyStoreUnavailableException.class)
          .hasMessageContaining("outside any transaction");
      try (PreparedStatement select =
          held.prepareStatement(
              "SELECT COUNT(*) FROM idempotency_record WHERE idempotency_key = ?")) {
        select.setString(1, key);
        try (ResultSet rs = select.executeQuery()) {
          rs.next();
          assertThat(rs.getLong(1)).as("nothing written inside the caller's transaction").isZero();
        }
      }
      held.rollback();
    }
    assertThat(store.find(TENANT, OPERATION, key)).isEmpty();
  }

  /** A data source that hands out {@code connection} every time and never closes it. */
  static DataSource singleConnection(Connection connection) {
    return SharedConnection.of(connection);
  }

  // ------------------------------------------------------------------ claiming in the operation's
  // transaction: what only a database with sessions and locks shows

  @Test
  void claimInTransaction_newKey_wonWithAttempt1_andVisibleOnlyOnceCompletedAndCommitted()
      throws Exception {
    String key = newKey();
    try (Transaction tx = new Transaction()) {
      ClaimResult result = tx.store.claimInTransaction(request(key, HASH, LONG, LONG, true), LONG);

      assertThat(result.won()).isTrue();
      IdempotencyRecord claimed = result.record();
      assertThat(claimed.attempt()).isEqualTo(1);
      assertThat(claimed.status()).isEqualTo(IdempotencyRecord.Status.PROCESSING);
      assertThat(claimed.expiresAt()).isAfter(Instant.now().plus(LONG).minusSeconds(5));
      assertThat(store.find(TENANT, OPERATION, key)).as("nothing committed yet").isEmpty();

      assertThat(tx.store.completeInTransaction(claimed, response(key))).isTrue();
      assertThat(store.find(TENANT, OPERATION, key)).as("still not committed").isEmpty();
      tx.commit();

      IdempotencyRecord stored = store.find(TENANT, OPERATION, key).orElseThrow();
      assertThat(stored.status()).isEqualTo(IdempotencyRecord.Status.COMPLETED);
      assertThat(stored.attempt()).isEqualTo(1);
      assertThat(stored.fingerprint()).isEqualTo(HASH);
      assertThat(stored.response()).isEqualTo(response(key));
      assertThat(stored.expiresAt()).isEqualTo(claimed.expiresAt());
      assertThat(resourceRef(key)).isEqualTo("/api/v1/orders/" + key);
    }
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void claimInTransaction_32ThreadsOnOneNewKey_oneWins_theOthersWaitAndSeeItsCompletedRow()
      throws Exception {
    String key = newKey();
    List<ClaimResult> results =
        race(
            32,
            () -> {
              try (Transaction tx = new Transaction()) {
                ClaimResult result =
                    tx.store.claimInTransaction(request(key, HASH, LONG, LONG, true), LONG);
                if (result.won()) {
                  // The owner is slow: everyone else must wait for it, not answer "running".
                  Thread.sleep(300);
                  assertThat(tx.store.completeInTransaction(result.record(), response(key)))
                      .isTrue();
                  tx.commit();
                } else {
                  tx.rollback();
                }
                return result;
              }
            });

    assertThat(results).filteredOn(ClaimResult::won).hasSize(1);
    assertThat(results)
        .filteredOn(r -> !r.won())
        .hasSize(31)
        .allSatisfy(
            r -> {
              assertThat(r.record().status()).isEqualTo(IdempotencyRecord.Status.COMPLETED);
              assertThat(r.record().attempt()).isEqualTo(1);
              assertThat(r.record().response()).isEqualTo(response(key));
            });
    assertThat(countRows(key)).isEqualTo(1);
  }

  @Test
  @Timeout(value = 30, unit = TimeUnit.SECONDS)
  void claimInTransaction_ownerRollsBack_theWaiterThenOwnsTheKey() throws Exception {
    String key = newKey();
    ExecutorService waiterThread = Executors.newSingleThreadExecutor();
    try (Transaction owner = new Transaction()) {
      assertThat(owner.store.claimInTransaction(request(key, HASH, LONG, LONG, true), LONG).won())
          .isTrue();
      Future<ClaimResult> waiter =
          waiterThread.submit(
              () -> {
                try (Transaction tx = new Transaction()) {
                  ClaimResult result =
                      tx.store.claimInTransaction(request(key, HASH, LONG, LONG, true), LONG);
                  if (result.won()) {
                    tx.store.completeInTransaction(result.record(), response("second"));
                    tx.commit();
                  }
                  return result;
                }
              });
      Thread.sleep(300);
      assertThat(waiter).as("the waiter waits while the owner holds the key").isNotDone();
      owner.rollback();

      ClaimResult second = waiter.get(10, TimeUnit.SECONDS);
      assertThat(second.won()).isTrue();
      assertThat(second.record().attempt()).isEqualTo(1);
    } finally {
      waiterThread.shutdownNow();
    }
    assertThat(store.find(TENANT, OPERATION, key).orElseThrow().response())
        .isEqualTo(response("second"));
  }

  /**
   * The claim holds the key, not the index gap where the key will go: two new keys next to each
   * other in the index (no row between them), under one tenant and operation, and a key of another
   * operation in the same stretch, are claimed while the first owner's transaction is still open,
   * and none of them waits (SQL Server's V8 claim held a key range here: docs/sqlserver.md).
   */
  @Test
  @Timeout(value = 30, unit = TimeUnit.SECONDS)
  void claimInTransaction_twoNewKeysInOneIndexGap_theSecondDoesNotWaitForTheFirst()
      throws Exception {
    String prefix = newKey();
    Duration wait = Duration.ofMillis(500);
    ExecutorService otherThread = Executors.newSingleThreadExecutor();
    try (Transaction owner = new Transaction()) {
      IdempotencyRecord held =
          owner
              .store
              .claimInTransaction(request(prefix + "-b", HASH, LONG, LONG, true), LONG)
              .record();
      for (ClaimRequest neighbour :
          List.of(
              request(prefix + "-a", HASH, LONG, LONG, true),
              request(prefix + "-c", HASH, LONG, LONG, true),
              new ClaimRequest(
                  TENANT, "payments.charge", prefix + "-b", HASH, LONG, LONG, false))) {
        Future<ClaimResult> other =
            otherThread.submit(
                () -> {
                  try (Transaction tx = new Transaction()) {
                    boundLockWait(tx.connection, wait);
                    ClaimResult result = tx.store.claimInTransaction(neighbour, wait);
                    tx.store.completeInTransaction(result.record(), response(neighbour.key()));
                    tx.commit();
                    return result;
                  }
                });
        assertThat(other.get(10, TimeUnit.SECONDS).won())
            .as(neighbour.operation() + " " + neighbour.key() + " while another key is held")
            .isTrue();
      }
      assertThat(owner.store.completeInTransaction(held, response("held"))).isTrue();
      owner.commit();
    } finally {
      otherThread.shutdownNow();
    }
    assertThat(store.find(TENANT, OPERATION, prefix + "-a")).isPresent();
    assertThat(store.find(TENANT, OPERATION, prefix + "-b").orElseThrow().response())
        .isEqualTo(response("held"));
  }

  /**
   * A completion that waits behind another session's lock on its row gives up after the store's
   * statement bound (a 503 for the request) instead of holding its thread and locks for ever.
   */
  @Test
  @Timeout(value = 30, unit = TimeUnit.SECONDS)
  void complete_behindAnotherSessionsLockOnItsRow_failsAfterTheStatementBound() throws Exception {
    String key = newKey();
    ClaimedKey claim = store.claim(request(key, HASH, LONG, LONG, false)).record().claimedKey();
    JdbcIdempotencyStore bounded =
        JdbcIdempotencyStore.forDataSource(dataSource())
            .boundingStatementsBy(Duration.ofSeconds(1));
    try (Connection holder = dataSource().getConnection()) {
      holder.setAutoCommit(false);
      try (PreparedStatement lock =
          holder.prepareStatement(
              "UPDATE idempotency_record SET locked_until = locked_until WHERE idempotency_key = ?")) {
        lock.setString(1, key);
        assertThat(lock.executeUpdate()).isEqualTo(1);
      }
      long started = System.nanoTime();
      assertThatThrownBy(() -> bounded.complete(claim, response(key)))
          .isInstanceOf(IdempotencyStoreUnavailableException.class);
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
      holder.rollback();
    }
    assertThat(store.complete(claim, response(key))).isTrue();
  }

  @Test
  @Timeout(value = 30, unit = TimeUnit.SECONDS)
  void claimInTransaction_ownerHoldsLongerThanTheWait_keyBusyAndTheOwnerStillCompletes()
      throws Exception {
    String key = newKey();
    Duration wait = Duration.ofMillis(300);
    ExecutorService waiterThread = Executors.newSingleThreadExecutor();
    try (Transaction owner = new Transaction()) {
      IdempotencyRecord claimed =
          owner.store.claimInTransaction(request(key, HASH, LONG, LONG, true), LONG).record();
      Future<Throwable> waiter =
          waiterThread.submit(
              () -> {
                try (Transaction tx = new Transaction()) {
                  boundLockWait(tx.connection, wait);
                  long started = System.nanoTime();
                  try {
                    tx.store.claimInTransaction(request(key, HASH, LONG, LONG, true), wait);
                    return null;
                  } catch (RuntimeException e) {
                    assertThat(Duration.ofNanos(System.nanoTime() - started))
                        .isLessThan(Duration.ofSeconds(5));
                    return e;
                  } finally {
                    tx.rollback();
                  }
                }
              });
      assertThat(waiter.get(10, TimeUnit.SECONDS)).isInstanceOf(KeyBusyException.class);
      assertThat(owner.store.completeInTransaction(claimed, response(key))).isTrue();
      owner.commit();
    } finally {
      waiterThread.shutdownNow();
    }
    assertThat(store.find(TENANT, OPERATION, key).orElseThrow().status())
        .isEqualTo(IdempotencyRecord.Status.COMPLETED);
  }

  /**
   * Makes {@code connection}'s next claim wait at most {@code wait} for a held key, where the
   * database takes that bound from the session rather than from the claim (H2: LOCK_TIMEOUT).
   */
  void boundLockWait(Connection connection, Duration wait) throws SQLException {}

  /** One transaction on its own connection, rolled back on close unless committed. */
  final class Transaction implements StoreTransaction {
    final Connection connection;
    final IdempotencyStore store;
    private boolean ended;

    Transaction() throws SQLException {
      connection = dataSource().getConnection();
      connection.setAutoCommit(false);
      store = JdbcIdempotencyStore.forDataSource(singleConnection(connection));
    }

    @Override
    public IdempotencyStore store() {
      return store;
    }

    @Override
    public void commit() throws SQLException {
      connection.commit();
      ended = true;
    }

    @Override
    public void rollback() throws SQLException {
      connection.rollback();
      ended = true;
    }

    @Override
    public void close() throws SQLException {
      try {
        if (!ended) {
          connection.rollback();
        }
      } finally {
        connection.close();
      }
    }
  }

  private long countRows(String key) throws SQLException {
    try (Connection connection = dataSource().getConnection();
        PreparedStatement select =
            connection.prepareStatement(
                "SELECT COUNT(*) FROM idempotency_record WHERE idempotency_key = ?")) {
      select.setString(1, key);
      try (ResultSet rs = select.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  // ------------------------------------------------------------------ the database's clock
  // docs/idempotency.md, "Time": every time decision is the database's. Each test runs the store
  // as a node whose clock is SKEW ahead of (or behind) the database's would see it, on rows
  // whose times are set from the database's own clock.

  static final Duration SKEW = Duration.ofMinutes(10);

  @Test
  void purgeExpired_appClockAhead_keepsARowUnexpiredByTheDatabaseClock() throws Exception {
    String key = completedKey();
    setFromDatabaseNow(key, "expires_at", Duration.ofMinutes(5));

    assertThat(skewed(SKEW).administration().purgeExpired(100)).isZero();
    assertThat(store.find(TENANT, OPERATION, key)).isPresent();
  }

  @Test
  void purgeExpired_appClockBehind_deletesARowExpiredByTheDatabaseClock() throws Exception {
    String key = completedKey();
    setFromDatabaseNow(key, "expires_at", Duration.ofMinutes(-1));

    boolean reached = batchedPurgeReaches(key);
    assertThat(skewed(SKEW.negated()).administration().purgeExpired(100))
        .isEqualTo(reached ? 1 : 0);
    assertThat(store.find(TENANT, OPERATION, key).isPresent()).isEqualTo(!reached);
  }

  @Test
  void claimCompleteReleaseAndCheck_appClockSkewed_stampTheDatabaseClock() throws Exception {
    IdempotencyStore behind = skewed(SKEW.negated());
    JdbcIdempotencyStore ahead = skewed(SKEW);
    String completed = newKey();
    ClaimedKey first =
        behind.claim(request(completed, HASH, LONG, LONG, true)).record().claimedKey();
    assertThat(behind.complete(first, response(completed))).isTrue();
    String released = newKey();
    ClaimedKey second =
        ahead.claim(request(released, HASH, LONG, LONG, true)).record().claimedKey();
    assertThat(ahead.administration().recordCheck(second, "GATEWAY_UNREACHABLE", null)).isTrue();
    Duration checked = sinceDatabaseNow(released, "last_checked_at");
    assertThat(ahead.release(second)).isTrue();

    Duration tolerance = Duration.ofMinutes(1);
    assertThat(sinceDatabaseNow(completed, "created_at").abs()).isLessThan(tolerance);
    assertThat(sinceDatabaseNow(completed, "completed_at").abs()).isLessThan(tolerance);
    assertThat(sinceDatabaseNow(completed, "expires_at").minus(LONG).abs()).isLessThan(tolerance);
    assertThat(sinceDatabaseNow(released, "created_at").abs()).isLessThan(tolerance);
    assertThat(checked.abs()).isLessThan(tolerance);
    assertThat(sinceDatabaseNow(released, "completed_at").abs()).isLessThan(tolerance);
    assertThat(sinceDatabaseNow(released, "locked_until").abs()).isLessThan(tolerance);
  }

  @Test
  void claim_appClockAhead_keepsACompletedKeyUnexpiredByTheDatabaseClock() throws Exception {
    String key = completedKey();
    setFromDatabaseNow(key, "expires_at", Duration.ofMinutes(5));

    ClaimResult reuse = skewed(SKEW).claim(request(key, OTHER_HASH, LONG, LONG, true));

    assertThat(reuse.won()).isFalse();
    assertThat(reuse.record().completed()).isTrue();
    assertThat(reuse.record().fingerprint()).isEqualTo(HASH);
  }

  @Test
  void claim_appClockBehind_reusesACompletedKeyExpiredByTheDatabaseClock() throws Exception {
    String key = completedKey();
    setFromDatabaseNow(key, "expires_at", Duration.ofMinutes(-1));

    ClaimResult reuse = skewed(SKEW.negated()).claim(request(key, OTHER_HASH, LONG, LONG, true));

    assertThat(reuse.won()).isTrue();
    assertThat(reuse.record().attempt()).isEqualTo(2);
  }

  @Test
  void claim_appClockAhead_leavesALeaseRunningByTheDatabaseClock() throws Exception {
    String key = newKey();
    store.claim(request(key, HASH, LONG, LONG, true));
    setFromDatabaseNow(key, "locked_until", Duration.ofMinutes(5));

    ClaimResult takeover = skewed(SKEW).claim(request(key, HASH, LONG, LONG, true));

    assertThat(takeover.won()).isFalse();
    assertThat(takeover.record().attempt()).isEqualTo(1);
  }

  @Test
  void findProcessing_appClockSkewed_measuresAgesOnTheDatabaseClock() throws Exception {
    String key = newKey();
    store.claim(request(key, HASH, LONG, LONG, true));
    setFromDatabaseNow(key, "created_at", Duration.ofMinutes(-1));

    assertThat(keysOver(skewed(SKEW)).findProcessing(OPERATION, Duration.ofMinutes(2), 10))
        .isEmpty();
    assertThat(
            keys(
                keysOver(skewed(SKEW.negated()))
                    .findProcessing(OPERATION, Duration.ofSeconds(30), 10)))
        .containsExactly(key);
  }

  @Test
  void listProcessing_appClockAhead_measuresAgesOnTheDatabaseClock() throws Exception {
    String key = newKey();
    store.claim(request(key, HASH, LONG, LONG, true));
    setFromDatabaseNow(key, "created_at", Duration.ofMinutes(-1));

    ProcessingQuery olderThan2Minutes =
        new ProcessingQuery(null, null, null, Duration.ofMinutes(2));
    ProcessingQuery olderThan30s = new ProcessingQuery(null, null, null, Duration.ofSeconds(30));
    assertThat(skewed(SKEW).administration().listProcessing(olderThan2Minutes, 0, 10).total())
        .isZero();
    assertThat(
            keys(
                skewed(SKEW.negated()).administration().listProcessing(olderThan30s, 0, 10).rows()))
        .containsExactly(key);
  }

  @Test
  void find_appClockSkewed_decidesExpiryLeaseAndAgeOnTheDatabaseClock() throws Exception {
    String key = newKey();
    store.claim(request(key, HASH, LONG, LONG, false));
    setFromDatabaseNow(key, "created_at", Duration.ofMinutes(-3));
    setFromDatabaseNow(key, "locked_until", Duration.ofSeconds(-1));
    setFromDatabaseNow(key, "expires_at", Duration.ofMinutes(5));

    for (Duration appAhead : List.of(SKEW, SKEW.negated())) {
      IdempotencyRecord seen = skewed(appAhead).find(TENANT, OPERATION, key).orElseThrow();
      ClaimResult retry = skewed(appAhead).claim(request(key, HASH, LONG, LONG, false));
      for (IdempotencyRecord record : List.of(seen, retry.record())) {
        assertThat(record.expired()).as("expired, app clock %s ahead", appAhead).isFalse();
        assertThat(record.leaseExpired()).as("lease ran out, app %s ahead", appAhead).isTrue();
        assertThat(record.age()).isBetween(Duration.ofMinutes(3), Duration.ofMinutes(4));
      }
      assertThat(retry.won()).isFalse();
    }
  }

  @Test
  void statistics_appClockAhead_measuresAgesAndLeasesOnTheDatabaseClock() throws Exception {
    String key = newKey();
    store.claim(request(key, HASH, LONG, LONG, true));
    setFromDatabaseNow(key, "created_at", Duration.ofSeconds(-30));
    setFromDatabaseNow(key, "locked_until", Duration.ofMinutes(5));

    KeyStatistics stats = keysOver(skewed(SKEW)).statistics();

    assertThat(stats.processingByAge(OPERATION))
        .containsEntry(KeyStatistics.AgeBucket.UNDER_1_MIN, 1L);
    assertThat(stats.expiredLeases()).isEmpty();
  }

  /** The store as a node whose clock is {@code appAhead} ahead of the database's sees it. */
  JdbcIdempotencyStore skewed(Duration appAhead) {
    return JdbcIdempotencyStore.forDataSource(SkewedDataSource.of(dataSource(), appAhead));
  }

  // ------------------------------------------------------------------ re-sealing after a rotation

  private static final String OLD_KEY_ID = "old-2026";
  private static final String NEW_KEY_ID = "new-2027";
  private static final String OLD_KEY = java.util.Base64.getEncoder().encodeToString(new byte[32]);
  private static final String NEW_KEY =
      java.util.Base64.getEncoder().encodeToString("0123456789abcdef0123456789abcdef".getBytes());

  /** This database's store, sealing with {@code sealing} and opening with the ring's keys. */
  private JdbcIdempotencyStore sealingWith(
      DataSource dataSource, java.util.Map<String, String> ring, String sealing) {
    return JdbcIdempotencyStore.forDataSource(dataSource)
        .encryptingBodiesWith(ResponseBodyCipher.keyring(ring, sealing));
  }

  /** Before the rotation: the old key alone. */
  private JdbcIdempotencyStore oldKeyOnly() {
    return sealingWith(dataSource(), java.util.Map.of(OLD_KEY_ID, OLD_KEY), OLD_KEY_ID);
  }

  /** During the rotation: both keys, the new one sealing. */
  private JdbcIdempotencyStore rotated(DataSource dataSource) {
    return sealingWith(
        dataSource, java.util.Map.of(OLD_KEY_ID, OLD_KEY, NEW_KEY_ID, NEW_KEY), NEW_KEY_ID);
  }

  /** After the rotation: the old key removed from the ring. */
  private JdbcIdempotencyStore newKeyOnly() {
    return sealingWith(dataSource(), java.util.Map.of(NEW_KEY_ID, NEW_KEY), NEW_KEY_ID);
  }

  /** A key completed with {@code response(key)} by {@code sealing}. */
  private static String completedBy(JdbcIdempotencyStore sealing) {
    String key = newKey();
    ClaimedKey claim = sealing.claim(request(key, HASH, LONG, LONG, false)).record().claimedKey();
    assertThat(sealing.complete(claim, response(key))).isTrue();
    return key;
  }

  private static byte[] replayedBody(JdbcIdempotencyStore store, String key) {
    return store.find(TENANT, OPERATION, key).orElseThrow().response().body();
  }

  private byte[] storedBytes(String key) throws SQLException {
    try (Connection connection = dataSource().getConnection();
        PreparedStatement select =
            connection.prepareStatement(
                "SELECT response_body FROM idempotency_record WHERE idempotency_key = ?")) {
      select.setString(1, key);
      try (ResultSet rs = select.executeQuery()) {
        assertThat(rs.next()).isTrue();
        return rs.getBytes(1);
      }
    }
  }

  @Test
  void resealBodies_afterARotation_everyReplayByteIdentical_withTheOldKeyRemovedFromTheRing() {
    JdbcIdempotencyStore before = oldKeyOnly();
    List<String> keys = new java.util.ArrayList<>();
    for (int i = 0; i < 5; i++) {
      keys.add(completedBy(before));
    }
    // A processing key whose outcome is unknown keeps a sealed problem for its retries too.
    String unknown = newKey();
    ClaimedKey claim =
        before.claim(request(unknown, HASH, LONG, LONG, false)).record().claimedKey();
    assertThat(before.markOutcomeUnknown(claim, problem())).isTrue();
    JdbcIdempotencyStore rotated = rotated(dataSource());
    assertThatThrownBy(() -> replayedBody(newKeyOnly(), keys.get(0)))
        .as("before the re-seal, the old key cannot leave the ring")
        .isInstanceOf(IdempotencyStoreUnavailableException.class);
    assertThat(rotated.administration().countBodiesWithOldKeys()).isEqualTo(6);

    com.banhang.idempotency.BodyResealBatch first = rotated.administration().resealBodies(4);
    com.banhang.idempotency.BodyResealBatch second = rotated.administration().resealBodies(4);
    com.banhang.idempotency.BodyResealBatch third = rotated.administration().resealBodies(4);

    assertThat(first.sealingKeyId()).isEqualTo(NEW_KEY_ID);
    assertThat(first.resealed()).isEqualTo(4);
    assertThat(first.resealedFrom()).isEqualTo(java.util.Map.of(OLD_KEY_ID, 4));
    assertThat(first.remaining()).isEqualTo(2);
    assertThat(second.resealed()).isEqualTo(2);
    assertThat(second.remaining()).isZero();
    assertThat(third.examined()).isZero();
    JdbcIdempotencyStore after = newKeyOnly();
    for (String key : keys) {
      IdempotencyRecord replay = after.find(TENANT, OPERATION, key).orElseThrow();
      assertThat(replay.response().body()).as(key).isEqualTo(response(key).body());
      assertThat(replay.response().headers()).isEqualTo(response(key).headers());
      assertThat(replay.status()).isEqualTo(IdempotencyRecord.Status.COMPLETED);
    }
    IdempotencyRecord stillUnknown = after.find(TENANT, OPERATION, unknown).orElseThrow();
    assertThat(stillUnknown.response().body()).isEqualTo(problem().body());
    assertThat(stillUnknown.outcomeUnknown()).isTrue();
    assertThat(stillUnknown.attempt()).isEqualTo(1);
  }

  @Test
  void resealBodies_aRowCompletedBetweenTheReadAndTheWrite_keepsItsCompletion() throws Exception {
    String key = newKey();
    JdbcIdempotencyStore before = oldKeyOnly();
    ClaimedKey claim = before.claim(request(key, HASH, LONG, LONG, false)).record().claimedKey();
    assertThat(before.markOutcomeUnknown(claim, problem())).isTrue();
    JdbcIdempotencyStore owner = rotated(dataSource());
    // The owner of the key completes it after the batch read the problem, before it writes.
    JdbcIdempotencyStore resealer =
        rotated(
            beforeTheResealWrite(
                dataSource(), () -> assertThat(owner.complete(claim, response(key))).isTrue()));

    com.banhang.idempotency.BodyResealBatch batch = resealer.administration().resealBodies(10);

    assertThat(batch.changedMeanwhile()).isEqualTo(1);
    assertThat(batch.resealed()).isZero();
    IdempotencyRecord row = newKeyOnly().find(TENANT, OPERATION, key).orElseThrow();
    assertThat(row.status()).isEqualTo(IdempotencyRecord.Status.COMPLETED);
    assertThat(row.response().body())
        .as("the completion, not the re-sealed problem read before it")
        .isEqualTo(response(key).body());
  }

  @Test
  void resealBodies_aBodyThatDoesNotOpen_isLeftAsItIs_andStillCountsAsRemaining() throws Exception {
    String altered = completedBy(oldKeyOnly());
    String intact = completedBy(oldKeyOnly());
    byte[] bytes = storedBytes(altered);
    bytes[bytes.length - 1] ^= 1;
    try (Connection connection = dataSource().getConnection();
        PreparedStatement update =
            connection.prepareStatement(
                "UPDATE idempotency_record SET response_body = ? WHERE idempotency_key = ?")) {
      update.setBytes(1, bytes);
      update.setString(2, altered);
      assertThat(update.executeUpdate()).isEqualTo(1);
    }

    com.banhang.idempotency.BodyResealBatch batch =
        rotated(dataSource()).administration().resealBodies(10);

    assertThat(batch.unreadable()).isEqualTo(1);
    assertThat(batch.resealed()).isEqualTo(1);
    assertThat(batch.remaining()).isEqualTo(1);
    assertThat(storedBytes(altered)).isEqualTo(bytes);
    assertThat(replayedBody(newKeyOnly(), intact)).isEqualTo(response(intact).body());
  }

  @Test
  void resealBodies_withoutAnOldKeyInTheRing_readsNothing() {
    completedBy(oldKeyOnly());
    com.banhang.idempotency.BodyResealBatch batch = oldKeyOnly().administration().resealBodies(10);
    assertThat(batch.examined()).isZero();
    assertThat(batch.remaining()).isZero();
    assertThat(batch.sealingKeyId()).isEqualTo(OLD_KEY_ID);
  }

  @Test
  void resealBodiesNow_runsBatchesUntilNoneRemain_andRecordsTheRunForOperators() {
    for (int i = 0; i < 5; i++) {
      completedBy(oldKeyOnly());
    }
    JdbcIdempotencyStore rotated = rotated(dataSource());
    String startedBy = "operator-" + newKey().substring(0, 8);

    com.banhang.idempotency.BodyResealRun cut =
        RecordsOver.resealing(rotated, rotated.administration(), 2, 1)
            .resealBodiesNow(startedBy + "-cut");
    com.banhang.idempotency.BodyResealRun run =
        RecordsOver.resealing(rotated, rotated.administration(), 2, 10).resealBodiesNow(startedBy);

    assertThat(cut.status()).isEqualTo(com.banhang.idempotency.BodyResealRun.Status.INCOMPLETE);
    assertThat(cut.rowsResealed()).isEqualTo(2);
    assertThat(cut.rowsRemaining()).isEqualTo(3);
    assertThat(cut.detail()).contains("idempotency.reseal.max-batches");
    assertThat(run.status()).isEqualTo(com.banhang.idempotency.BodyResealRun.Status.COMPLETE);
    assertThat(run.rowsResealed()).isEqualTo(3);
    assertThat(run.rowsRemaining()).isZero();
    assertThat(run.fromKeyIds()).containsExactly(OLD_KEY_ID);
    assertThat(run.toKeyId()).isEqualTo(NEW_KEY_ID);
    List<com.banhang.idempotency.BodyResealRun> recorded =
        rotated.administration().recentResealRuns(50).stream()
            .filter(r -> r.startedBy().startsWith(startedBy))
            .toList();
    assertThat(recorded)
        .extracting(
            com.banhang.idempotency.BodyResealRun::startedBy,
            com.banhang.idempotency.BodyResealRun::status,
            com.banhang.idempotency.BodyResealRun::rowsResealed,
            com.banhang.idempotency.BodyResealRun::fromKeyIds,
            com.banhang.idempotency.BodyResealRun::toKeyId,
            com.banhang.idempotency.BodyResealRun::rowsRemaining)
        .as("newest first, as stored")
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                startedBy,
                com.banhang.idempotency.BodyResealRun.Status.COMPLETE,
                3,
                java.util.Set.of(OLD_KEY_ID),
                NEW_KEY_ID,
                0L),
            org.assertj.core.groups.Tuple.tuple(
                startedBy + "-cut",
                com.banhang.idempotency.BodyResealRun.Status.INCOMPLETE,
                2,
                java.util.Set.of(OLD_KEY_ID),
                NEW_KEY_ID,
                3L));
    assertThat(recorded.get(1).detail()).isEqualTo(cut.detail());
    assertThat(recorded.get(0).node()).isEqualTo(run.node());
  }

  /**
   * {@code dataSource}, running {@code hook} once just before the re-seal's UPDATE is prepared:
   * after the batch read its rows, before it writes them.
   */
  private static DataSource beforeTheResealWrite(DataSource dataSource, Runnable hook) {
    java.util.concurrent.atomic.AtomicBoolean ran = new java.util.concurrent.atomic.AtomicBoolean();
    ClassLoader loader = JdbcIdempotencyStoreContract.class.getClassLoader();
    return (DataSource)
        java.lang.reflect.Proxy.newProxyInstance(
            loader,
            new Class<?>[] {DataSource.class},
            (proxy, method, args) -> {
              Object result = invoke(method, dataSource, args);
              if (!(result instanceof Connection connection)) {
                return result;
              }
              return java.lang.reflect.Proxy.newProxyInstance(
                  loader,
                  new Class<?>[] {Connection.class},
                  (p, m, a) -> {
                    if (m.getName().equals("prepareStatement")
                        && a[0] instanceof String sql
                        && sql.startsWith("UPDATE idempotency_record SET response_body")
                        && ran.compareAndSet(false, true)) {
                      hook.run();
                    }
                    return invoke(m, connection, a);
                  });
            });
  }

  private static Object invoke(java.lang.reflect.Method method, Object target, Object[] args)
      throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (java.lang.reflect.InvocationTargetException e) {
      throw e.getCause();
    }
  }

  /** {@code IdempotencyKeys} over {@code store} and its administration. */
  private static IdempotencyKeys keysOver(JdbcIdempotencyStore store) {
    return RecordsOver.store(store, store.administration());
  }

  /** Sets {@code column} of the key's row to the database's clock plus {@code offset}. */
  void setFromDatabaseNow(String key, String column, Duration offset) throws SQLException {
    try (Connection connection = dataSource().getConnection();
        PreparedStatement update =
            connection.prepareStatement(
                "UPDATE idempotency_record SET "
                    + column
                    + " = CURRENT_TIMESTAMP + INTERVAL '"
                    + offset.toSeconds()
                    + "' SECOND WHERE idempotency_key = ?")) {
      update.setString(1, key);
      assertThat(update.executeUpdate()).isEqualTo(1);
    }
  }

  /** How far {@code column} of the key's row is from the database's clock (negative: before). */
  Duration sinceDatabaseNow(String key, String column) throws SQLException {
    try (Connection connection = dataSource().getConnection();
        PreparedStatement select =
            connection.prepareStatement(
                "SELECT "
                    + column
                    + ", CURRENT_TIMESTAMP FROM idempotency_record"
                    + " WHERE idempotency_key = ?")) {
      select.setString(1, key);
      try (ResultSet rs = select.executeQuery()) {
        assertThat(rs.next()).isTrue();
        java.time.OffsetDateTime value = rs.getObject(1, java.time.OffsetDateTime.class);
        java.time.OffsetDateTime now = rs.getObject(2, java.time.OffsetDateTime.class);
        assertThat(value).as(column).isNotNull();
        return Duration.between(now, value);
      }
    }
  }
}
