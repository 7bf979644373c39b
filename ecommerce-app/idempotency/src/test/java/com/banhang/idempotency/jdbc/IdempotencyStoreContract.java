package com.banhang.idempotency.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.banhang.idempotency.ClaimedKey;
import com.banhang.idempotency.IdempotencyRecord;
import com.banhang.idempotency.IdempotencyStoreUnavailableException;
import com.banhang.idempotency.KeyStatistics;
import com.banhang.idempotency.ProcessingPage;
import com.banhang.idempotency.ProcessingQuery;
import com.banhang.idempotency.PurgeRun;
import com.banhang.idempotency.RecordStatus;
import com.banhang.idempotency.SharedConnection;
import com.banhang.idempotency.SkewedDataSource;
import com.banhang.idempotency.StoredResponse;
import com.banhang.idempotency.internal.RecordsOver;
import com.banhang.idempotency.spi.ClaimRequest;
import com.banhang.idempotency.spi.ClaimResult;
import com.banhang.idempotency.spi.IdempotencyStore;
import com.banhang.idempotency.spi.IdempotencyStoreAdministration;
import com.banhang.idempotency.spi.KeyBusyException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The {@link IdempotencyStore} contract (docs/idempotency.md: atomicity and retention), run against
 * each database by a subclass that supplies a migrated data source. Every test starts from an empty
 * table.
 */
abstract class IdempotencyStoreContract {

  static final String TENANT = "alice";
  static final String OPERATION = "orders.create";
  static final String HASH = "a".repeat(64);
  static final String OTHER_HASH = "b".repeat(64);
  static final Duration LONG = Duration.ofMinutes(10);
  static final Duration SHORT_LEASE = Duration.ofMillis(200);
  static final Duration SHORT_TTL = Duration.ofSeconds(1);

  IdempotencyStore store;
  IdempotencyStoreAdministration administration;

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

  @BeforeEach
  void emptyTableAndStore() throws SQLException {
    try (Connection connection = dataSource().getConnection();
        PreparedStatement delete = connection.prepareStatement("DELETE FROM idempotency_record")) {
      delete.executeUpdate();
    }
    JdbcIdempotencyStore jdbc = JdbcIdempotencyStore.forDataSource(dataSource());
    store = jdbc;
    administration = jdbc.administration();
  }

  // ------------------------------------------------------------------ choosing the store

  @Test
  void forDataSource_thisDatabase_picksItsStore() {
    assertThat(store).isExactlyInstanceOf(expectedStoreClass());
  }

  // ------------------------------------------------------------------ claiming

  @Test
  void claim_newKey_wonWithAttempt1AndProcessing() {
    Instant before = Instant.now();
    ClaimResult result = store.claim(request(newKey(), HASH, LONG, LONG, false));

    assertThat(result.won()).isTrue();
    IdempotencyRecord record = result.record();
    assertThat(record.attempt()).isEqualTo(1);
    assertThat(record.status()).isEqualTo(RecordStatus.PROCESSING);
    assertThat(record.requestHash()).isEqualTo(HASH);
    assertThat(record.outcomeUnknown()).isFalse();
    assertThat(record.response()).isNull();
    assertThat(record.completedAt()).isNull();
    assertThat(record.lockedUntil()).isAfter(before.plus(LONG).minusSeconds(5));
    assertThat(record.expiresAt()).isAfter(before.plus(LONG).minusSeconds(5));
  }

  @Test
  void claim_keyAlreadyProcessing_notWonAndSeesTheFirstClaim() {
    String key = newKey();
    ClaimResult first = store.claim(request(key, HASH, LONG, LONG, true));
    ClaimResult second = store.claim(request(key, OTHER_HASH, LONG, LONG, true));

    assertThat(second.won()).isFalse();
    assertThat(second.record().attempt()).isEqualTo(1);
    assertThat(second.record().requestHash()).isEqualTo(HASH);
    assertThat(second.record().createdAt()).isEqualTo(first.record().createdAt());
  }

  @Test
  @Timeout(value = 30, unit = TimeUnit.SECONDS)
  void claim_32ThreadsOnOneNewKey_exactlyOneWinsAndAllSeeTheSameRow() throws Exception {
    String key = newKey();
    List<ClaimResult> results = race(32, () -> store.claim(request(key, HASH, LONG, LONG, false)));

    assertThat(results).filteredOn(ClaimResult::won).hasSize(1);
    assertThat(results)
        .allSatisfy(
            r -> {
              assertThat(r.record().attempt()).isEqualTo(1);
              assertThat(r.record().requestHash()).isEqualTo(HASH);
              assertThat(r.record().status()).isEqualTo(RecordStatus.PROCESSING);
            });
  }

  @Test
  void claim_sameKeyUnderAnotherTenantOrOperation_independent() {
    String key = newKey();
    ClaimResult alice =
        store.claim(new ClaimRequest("alice", OPERATION, key, HASH, LONG, LONG, false));
    ClaimResult bob =
        store.claim(new ClaimRequest("bob", OPERATION, key, OTHER_HASH, LONG, LONG, false));
    ClaimResult charge =
        store.claim(
            new ClaimRequest("alice", "payments.charge", key, OTHER_HASH, LONG, LONG, false));

    assertThat(List.of(alice, bob, charge))
        .allSatisfy(
            r -> {
              assertThat(r.won()).isTrue();
              assertThat(r.record().attempt()).isEqualTo(1);
            });
    assertThat(store.complete(alice.record().claimedKey(), response("alice"))).isTrue();
    assertThat(store.find("bob", OPERATION, key).orElseThrow().status())
        .isEqualTo(RecordStatus.PROCESSING);
    assertThat(store.find("alice", "payments.charge", key).orElseThrow().requestHash())
        .isEqualTo(OTHER_HASH);
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

  // ------------------------------------------------------------------ completing

  @Test
  void complete_byOwner_storesExactResponseReadableByFind() {
    String key = newKey();
    ClaimedKey claim = store.claim(request(key, HASH, LONG, LONG, false)).record().claimedKey();
    StoredResponse response = response("created");

    assertThat(store.complete(claim, response)).isTrue();

    IdempotencyRecord record = store.find(TENANT, OPERATION, key).orElseThrow();
    assertThat(record.status()).isEqualTo(RecordStatus.COMPLETED);
    assertThat(record.completedAt()).isNotNull();
    assertThat(record.response().status()).isEqualTo(201);
    assertThat(record.response().headers()).containsExactlyEntriesOf(response.headers());
    assertThat(record.response().body()).containsExactly(response.body());
    assertThat(record.response()).isEqualTo(response);
    assertThat(resourceRef(key)).isEqualTo("/api/v1/orders/created");
  }

  @Test
  void claim_afterCompletion_notWonAndReturnsTheStoredResponse() {
    String key = newKey();
    ClaimedKey claim = store.claim(request(key, HASH, LONG, LONG, true)).record().claimedKey();
    store.complete(claim, response("first"));

    ClaimResult again = store.claim(request(key, HASH, SHORT_LEASE, LONG, true));

    assertThat(again.won()).isFalse();
    assertThat(again.record().status()).isEqualTo(RecordStatus.COMPLETED);
    assertThat(again.record().attempt()).isEqualTo(1);
    assertThat(again.record().response()).isEqualTo(response("first"));
  }

  // ------------------------------------------------------------------ claiming in the operation's
  // transaction (local operations): one commit per new key

  @Test
  void claimInTransaction_newKey_wonWithAttempt1_andVisibleOnlyOnceCompletedAndCommitted()
      throws Exception {
    String key = newKey();
    try (Transaction tx = new Transaction()) {
      ClaimResult result = tx.store.claimInTransaction(request(key, HASH, LONG, LONG, true), LONG);

      assertThat(result.won()).isTrue();
      IdempotencyRecord claimed = result.record();
      assertThat(claimed.attempt()).isEqualTo(1);
      assertThat(claimed.status()).isEqualTo(RecordStatus.PROCESSING);
      assertThat(claimed.expiresAt()).isAfter(Instant.now().plus(LONG).minusSeconds(5));
      assertThat(store.find(TENANT, OPERATION, key)).as("nothing committed yet").isEmpty();

      assertThat(tx.store.completeInTransaction(claimed, response(key))).isTrue();
      assertThat(store.find(TENANT, OPERATION, key)).as("still not committed").isEmpty();
      tx.commit();

      IdempotencyRecord stored = store.find(TENANT, OPERATION, key).orElseThrow();
      assertThat(stored.status()).isEqualTo(RecordStatus.COMPLETED);
      assertThat(stored.attempt()).isEqualTo(1);
      assertThat(stored.requestHash()).isEqualTo(HASH);
      assertThat(stored.response()).isEqualTo(response(key));
      assertThat(stored.expiresAt()).isEqualTo(claimed.expiresAt());
      assertThat(resourceRef(key)).isEqualTo("/api/v1/orders/" + key);
    }
  }

  @Test
  void claimInTransaction_rolledBack_leavesNoRowAndTheKeyFree() throws Exception {
    String key = newKey();
    try (Transaction tx = new Transaction()) {
      IdempotencyRecord claimed =
          tx.store.claimInTransaction(request(key, HASH, LONG, LONG, true), LONG).record();
      tx.store.completeInTransaction(claimed, response(key));
      tx.rollback();
    }
    assertThat(store.find(TENANT, OPERATION, key)).isEmpty();
    try (Transaction tx = new Transaction()) {
      assertThat(tx.store.claimInTransaction(request(key, HASH, LONG, LONG, true), LONG).won())
          .isTrue();
    }
  }

  @Test
  void claimInTransaction_completedKey_notWon_returnsTheStoredResponse_writesNothing()
      throws Exception {
    String key = completedKey();
    IdempotencyRecord before = store.find(TENANT, OPERATION, key).orElseThrow();
    try (Transaction tx = new Transaction()) {
      ClaimResult again = tx.store.claimInTransaction(request(key, HASH, LONG, LONG, true), LONG);

      assertThat(again.won()).isFalse();
      assertThat(again.record().status()).isEqualTo(RecordStatus.COMPLETED);
      assertThat(again.record().response()).isEqualTo(response(key));
      tx.commit();
    }
    IdempotencyRecord after = store.find(TENANT, OPERATION, key).orElseThrow();
    assertThat(after.attempt()).isEqualTo(before.attempt());
    assertThat(after.completedAt()).isEqualTo(before.completedAt());
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
              assertThat(r.record().status()).isEqualTo(RecordStatus.COMPLETED);
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
        .isEqualTo(RecordStatus.COMPLETED);
  }

  @Test
  void claimInTransaction_releasedKey_takenOverWithAHigherAttempt() throws Exception {
    String key = newKey();
    store.release(store.claim(request(key, HASH, LONG, LONG, true)).record().claimedKey());
    try (Transaction tx = new Transaction()) {
      ClaimResult result =
          tx.store.claimInTransaction(request(key, OTHER_HASH, LONG, LONG, true), LONG);
      assertThat(result.won()).isTrue();
      assertThat(result.record().attempt()).isEqualTo(2);
      assertThat(tx.store.completeInTransaction(result.record(), response(key))).isTrue();
      tx.commit();
    }
    IdempotencyRecord stored = store.find(TENANT, OPERATION, key).orElseThrow();
    assertThat(stored.status()).isEqualTo(RecordStatus.COMPLETED);
    assertThat(stored.attempt()).isEqualTo(2);
    assertThat(stored.requestHash()).isEqualTo(OTHER_HASH);
  }

  @Test
  void claimInTransaction_expiredLease_takenOverOnlyWhenAllowed() throws Exception {
    String key = newKey();
    store.claim(request(key, HASH, SHORT_LEASE, LONG, true));
    pastShortLease();
    try (Transaction tx = new Transaction()) {
      assertThat(tx.store.claimInTransaction(request(key, HASH, LONG, LONG, false), LONG).won())
          .as("no takeover allowed")
          .isFalse();
    }
    try (Transaction tx = new Transaction()) {
      ClaimResult result = tx.store.claimInTransaction(request(key, HASH, LONG, LONG, true), LONG);
      assertThat(result.won()).isTrue();
      assertThat(result.record().attempt()).isEqualTo(2);
      assertThat(tx.store.completeInTransaction(result.record(), response(key))).isTrue();
      tx.commit();
    }
    assertThat(store.find(TENANT, OPERATION, key).orElseThrow().attempt()).isEqualTo(2);
  }

  @Test
  void completeInTransaction_staleClaim_isRefusedAndChangesNothing() throws Exception {
    String key = newKey();
    IdempotencyRecord claimed;
    try (Transaction tx = new Transaction()) {
      claimed = tx.store.claimInTransaction(request(key, HASH, LONG, LONG, true), LONG).record();
      tx.store.completeInTransaction(claimed, response("first"));
      tx.commit();
    }
    try (Transaction tx = new Transaction()) {
      assertThat(tx.store.completeInTransaction(claimed, response("second")))
          .as("a claim already completed cannot write again")
          .isFalse();
      tx.rollback();
    }
    assertThat(store.find(TENANT, OPERATION, key).orElseThrow().response())
        .isEqualTo(response("first"));
  }

  @Test
  void completeInTransaction_takeoverWhoseRowAnOldOwnerCompletedMeanwhile_isRefused()
      throws Exception {
    String key = newKey();
    ClaimedKey oldOwner =
        store.claim(request(key, HASH, SHORT_LEASE, LONG, true)).record().claimedKey();
    pastShortLease();
    IdempotencyRecord takeover;
    try (Transaction tx = new Transaction()) {
      takeover = tx.store.claimInTransaction(request(key, HASH, LONG, LONG, true), LONG).record();
      assertThat(takeover.attempt()).isEqualTo(2);
      tx.rollback();
    }
    // The old owner finishes after all (its lease had run out, not its work).
    assertThat(store.complete(oldOwner, response("old"))).isTrue();
    try (Transaction tx = new Transaction()) {
      assertThat(tx.store.completeInTransaction(takeover, response("new"))).isFalse();
      tx.rollback();
    }
    IdempotencyRecord stored = store.find(TENANT, OPERATION, key).orElseThrow();
    assertThat(stored.attempt()).isEqualTo(1);
    assertThat(stored.response()).isEqualTo(response("old"));
  }

  /**
   * Makes {@code connection}'s next claim wait at most {@code wait} for a held key, where the
   * database takes that bound from the session rather than from the claim (H2: LOCK_TIMEOUT).
   */
  void boundLockWait(Connection connection, Duration wait) throws SQLException {}

  /** One transaction on its own connection, rolled back on close unless committed. */
  final class Transaction implements AutoCloseable {
    final Connection connection;
    final IdempotencyStore store;
    private boolean ended;

    Transaction() throws SQLException {
      connection = dataSource().getConnection();
      connection.setAutoCommit(false);
      store = JdbcIdempotencyStore.forDataSource(singleConnection(connection));
    }

    void commit() throws SQLException {
      connection.commit();
      ended = true;
    }

    void rollback() throws SQLException {
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

  // ------------------------------------------------------------------ leases and fencing

  @Test
  void claim_expiredLeaseTakeoverAllowedSameHash_wonWithAttempt2() throws Exception {
    String key = newKey();
    store.claim(request(key, HASH, SHORT_LEASE, LONG, true));
    pastShortLease();

    ClaimResult takeover = store.claim(request(key, HASH, LONG, LONG, true));

    assertThat(takeover.won()).isTrue();
    assertThat(takeover.record().attempt()).isEqualTo(2);
    assertThat(takeover.record().status()).isEqualTo(RecordStatus.PROCESSING);
    assertThat(takeover.record().lockedUntil()).isAfter(Instant.now().plus(LONG).minusSeconds(5));
  }

  @Test
  void claim_expiredLeaseTakeoverNotAllowed_notWon() throws Exception {
    String key = newKey();
    store.claim(request(key, HASH, SHORT_LEASE, LONG, false));
    pastShortLease();

    ClaimResult retry = store.claim(request(key, HASH, LONG, LONG, false));

    assertThat(retry.won()).isFalse();
    assertThat(retry.record().attempt()).isEqualTo(1);
  }

  @Test
  void claim_abandonedLocalClaimPastItsTtl_wonByAnyRequest() throws Exception {
    String key = newKey();
    store.claim(request(key, HASH, SHORT_LEASE, SHORT_TTL, true));
    pastShortTtl();

    ClaimResult retry = store.claim(request(key, OTHER_HASH, LONG, LONG, true));
    ClaimResult remote =
        store.claim(request(newKeyClaimedAndAbandoned(), OTHER_HASH, LONG, LONG, false));

    assertThat(retry.won()).isTrue();
    assertThat(retry.record().attempt()).isEqualTo(2);
    assertThat(retry.record().requestHash()).isEqualTo(OTHER_HASH);
    assertThat(remote.won()).as("a remote claim is never taken over").isFalse();
  }

  private String newKeyClaimedAndAbandoned() throws InterruptedException {
    String key = newKey();
    store.claim(request(key, HASH, SHORT_LEASE, SHORT_TTL, false));
    pastShortTtl();
    return key;
  }

  @Test
  void claim_expiredLeaseOtherHash_notWon() throws Exception {
    String key = newKey();
    store.claim(request(key, HASH, SHORT_LEASE, LONG, true));
    pastShortLease();

    ClaimResult retry = store.claim(request(key, OTHER_HASH, LONG, LONG, true));

    assertThat(retry.won()).isFalse();
    assertThat(retry.record().attempt()).isEqualTo(1);
    assertThat(retry.record().requestHash()).isEqualTo(HASH);
  }

  @Test
  void claim_expiredLeaseWithOutcomeUnknown_notWon() throws Exception {
    String key = newKey();
    ClaimedKey claim =
        store.claim(request(key, HASH, SHORT_LEASE, LONG, true)).record().claimedKey();
    assertThat(store.markOutcomeUnknown(claim, problem())).isTrue();
    pastShortLease();

    ClaimResult retry = store.claim(request(key, HASH, LONG, LONG, true));

    assertThat(retry.won()).isFalse();
    assertThat(retry.record().attempt()).isEqualTo(1);
    assertThat(retry.record().outcomeUnknown()).isTrue();
    assertThat(retry.record().status()).isEqualTo(RecordStatus.PROCESSING);
    assertThat(retry.record().response()).isEqualTo(problem());
  }

  @Test
  void staleOwner_afterTakeover_cannotCompleteReleaseOrMarkUnknown() throws Exception {
    String key = newKey();
    ClaimedKey stale =
        store.claim(request(key, HASH, SHORT_LEASE, LONG, true)).record().claimedKey();
    pastShortLease();
    ClaimedKey owner = store.claim(request(key, HASH, LONG, LONG, true)).record().claimedKey();
    assertThat(owner.attempt()).isEqualTo(2);
    IdempotencyRecord before = store.find(TENANT, OPERATION, key).orElseThrow();

    assertThat(store.complete(stale, response("stale"))).isFalse();
    assertThat(store.markOutcomeUnknown(stale, problem())).isFalse();
    assertThat(store.release(stale)).isFalse();
    assertThat(
            store
                .find(TENANT, OPERATION, key)
                .map(unchanged -> JdbcIdempotencyStore.withReadAt(unchanged, before.readAt())))
        .contains(before);

    assertThat(store.complete(owner, response("owner"))).isTrue();
    assertThat(store.find(TENANT, OPERATION, key).orElseThrow().response())
        .isEqualTo(response("owner"));
  }

  @Test
  void owner_afterCompletion_cannotWriteAgain() {
    String key = newKey();
    ClaimedKey claim = store.claim(request(key, HASH, LONG, LONG, false)).record().claimedKey();
    store.complete(claim, response("first"));

    assertThat(store.complete(claim, response("second"))).isFalse();
    assertThat(store.markOutcomeUnknown(claim, problem())).isFalse();
    assertThat(store.release(claim)).isFalse();
    assertThat(store.find(TENANT, OPERATION, key).orElseThrow().response())
        .isEqualTo(response("first"));
  }

  @Test
  @Timeout(value = 30, unit = TimeUnit.SECONDS)
  void claim_16ThreadsTakingOverOneExpiredLease_exactlyOneWins() throws Exception {
    String key = newKey();
    store.claim(request(key, HASH, SHORT_LEASE, LONG, true));
    pastShortLease();

    List<ClaimResult> results = race(16, () -> store.claim(request(key, HASH, LONG, LONG, true)));

    assertThat(results)
        .filteredOn(ClaimResult::won)
        .hasSize(1)
        .allSatisfy(r -> assertThat(r.record().attempt()).isEqualTo(2));
    assertThat(results).allSatisfy(r -> assertThat(r.record().attempt()).isEqualTo(2));
    assertThat(store.find(TENANT, OPERATION, key).orElseThrow().attempt()).isEqualTo(2);
  }

  // ------------------------------------------------------------------ releasing and expiry

  @Test
  void release_byOwner_soTheNextClaimWinsWithAHigherAttempt() {
    String key = newKey();
    ClaimedKey claim = store.claim(request(key, HASH, LONG, LONG, false)).record().claimedKey();

    assertThat(store.release(claim)).isTrue();
    assertThat(store.find(TENANT, OPERATION, key).orElseThrow().status())
        .isEqualTo(RecordStatus.RELEASED);

    ClaimResult next = store.claim(request(key, OTHER_HASH, LONG, LONG, false));
    assertThat(next.won()).isTrue();
    assertThat(next.record().attempt()).isEqualTo(2);
    assertThat(next.record().status()).isEqualTo(RecordStatus.PROCESSING);
    assertThat(next.record().requestHash()).isEqualTo(OTHER_HASH);
  }

  @Test
  void staleOwner_afterReleaseAndNewClaim_cannotReleaseOrCompleteTheNewClaim() {
    String key = newKey();
    ClaimedKey first = store.claim(request(key, HASH, LONG, LONG, false)).record().claimedKey();
    assertThat(store.release(first)).isTrue();
    ClaimedKey second = store.claim(request(key, HASH, LONG, LONG, false)).record().claimedKey();

    assertThat(store.release(first)).isFalse();
    assertThat(store.complete(first, new StoredResponse(201, Map.of(), new byte[] {1}))).isFalse();
    assertThat(store.find(TENANT, OPERATION, key).orElseThrow().status())
        .isEqualTo(RecordStatus.PROCESSING);
    assertThat(store.complete(second, new StoredResponse(201, Map.of(), new byte[] {1}))).isTrue();
  }

  @Test
  void claim_completedKeyPastItsTtl_wonAgainEvenWithAnotherHash() throws Exception {
    String key = newKey();
    ClaimedKey first =
        store.claim(request(key, HASH, LONG, SHORT_TTL, false)).record().claimedKey();
    store.complete(first, response("first"));
    pastShortTtl();

    ClaimResult again = store.claim(request(key, OTHER_HASH, LONG, LONG, false));

    assertThat(again.won()).isTrue();
    assertThat(again.record().status()).isEqualTo(RecordStatus.PROCESSING);
    assertThat(again.record().requestHash()).isEqualTo(OTHER_HASH);
    assertThat(again.record().response()).isNull();
    assertThat(again.record().completedAt()).isNull();
    assertThat(again.record().attempt()).isGreaterThan(first.attempt());
    assertThat(store.complete(first, response("late"))).isFalse();
  }

  @Test
  @Timeout(value = 30, unit = TimeUnit.SECONDS)
  void claim_16ThreadsReusingOneExpiredCompletedKey_exactlyOneWins() throws Exception {
    String key = newKey();
    ClaimedKey first =
        store.claim(request(key, HASH, LONG, SHORT_TTL, false)).record().claimedKey();
    store.complete(first, response("first"));
    pastShortTtl();

    List<ClaimResult> results =
        race(16, () -> store.claim(request(key, OTHER_HASH, LONG, LONG, false)));

    assertThat(results).filteredOn(ClaimResult::won).hasSize(1);
    assertThat(results)
        .allSatisfy(
            r -> {
              assertThat(r.record().status()).isEqualTo(RecordStatus.PROCESSING);
              assertThat(r.record().requestHash()).isEqualTo(OTHER_HASH);
              assertThat(r.record().attempt()).isEqualTo(results.get(0).record().attempt());
            });
  }

  @Test
  void purgeExpired_completedRowsPastTtl_deletedInBatchesOfTheGivenSize() throws Exception {
    List<String> expiring = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      String key = newKey();
      expiring.add(key);
      store.complete(
          store.claim(request(key, HASH, LONG, SHORT_TTL, false)).record().claimedKey(),
          response(key));
    }
    String kept = newKey();
    store.complete(
        store.claim(request(kept, HASH, LONG, LONG, false)).record().claimedKey(), response(kept));
    String processing = newKey();
    store.claim(request(processing, HASH, LONG, SHORT_TTL, false));
    pastShortTtl();

    assertThat(administration.purgeExpired(2)).isEqualTo(2);
    assertThat(administration.purgeExpired(2)).isEqualTo(2);
    assertThat(administration.purgeExpired(2)).isEqualTo(1);
    assertThat(administration.purgeExpired(2)).isZero();

    assertThat(expiring)
        .allSatisfy(key -> assertThat(store.find(TENANT, OPERATION, key)).isEmpty());
    assertThat(store.find(TENANT, OPERATION, kept)).isPresent();
    assertThat(store.find(TENANT, OPERATION, processing)).isPresent();
  }

  @Test
  void purgeExpired_processingRowPastItsExpiry_neverDeleted() throws Exception {
    String key = newKey();
    store.claim(request(key, HASH, SHORT_LEASE, SHORT_TTL, true));
    pastShortTtl();

    assertThat(administration.purgeExpired(100)).isZero();

    IdempotencyRecord record = store.find(TENANT, OPERATION, key).orElseThrow();
    assertThat(record.status()).isEqualTo(RecordStatus.PROCESSING);
    assertThat(record.expiresAt()).isBefore(Instant.now());
  }

  // ------------------------------------------------------------------ reconciliation's view

  @Test
  void findProcessing_returnsOnlyProcessingRowsOfTheOperationClaimedBefore_oldestFirst()
      throws Exception {
    String oldest = claimProcessing(OPERATION);
    String middle = claimProcessing(OPERATION);
    String youngest = claimProcessing(OPERATION);
    String completed = newKey();
    store.complete(
        store.claim(request(completed, HASH, LONG, LONG, false)).record().claimedKey(),
        response("c"));
    claimProcessing("payments.charge");
    ageAll(Duration.ofMinutes(1));
    claimProcessing(OPERATION);
    Duration minAge = Duration.ofSeconds(30);

    assertThat(keys(administration.findProcessing(OPERATION, minAge, 10)))
        .containsExactly(oldest, middle, youngest);
    assertThat(keys(administration.findProcessing(OPERATION, minAge, 2)))
        .containsExactly(oldest, middle);
    assertThat(administration.findProcessing(OPERATION, minAge, 10))
        .allSatisfy(
            r -> {
              assertThat(r.operation()).isEqualTo(OPERATION);
              assertThat(r.status()).isEqualTo(RecordStatus.PROCESSING);
              assertThat(r.age()).isGreaterThanOrEqualTo(minAge);
            });
  }

  @Test
  void findProcessing_moreParkedRowsThanOneBatch_stillReachesTheOthers() throws Exception {
    // Rows only an operator can settle must not fill every batch a reconciler examines.
    for (int i = 0; i < 12; i++) {
      ClaimedKey parked =
          store
              .claim(new ClaimRequest(TENANT, OPERATION, newKey(), HASH, LONG, LONG, true))
              .record()
              .claimedKey();
      assertThat(
              administration.recordCheck(
                  parked, "NEEDS_OPERATOR", "older than the gateway keeps keys"))
          .isTrue();
    }
    String unreachable = claimProcessing(OPERATION);
    administration.recordCheck(
        store.find(TENANT, OPERATION, unreachable).orElseThrow().claimedKey(),
        "GATEWAY_UNREACHABLE",
        null);
    String fresh = claimProcessing(OPERATION);
    ageAll(Duration.ofMinutes(1));
    Duration cutoff = Duration.ofSeconds(30);

    assertThat(keys(administration.findProcessing(OPERATION, cutoff, 10))).hasSize(10);
    assertThat(keys(administration.findProcessing(OPERATION, cutoff, Set.of("NEEDS_OPERATOR"), 10)))
        .containsExactly(unreachable, fresh);
    assertThat(
            keys(
                administration.findProcessing(
                    OPERATION, cutoff, Set.of("NEEDS_OPERATOR", "GATEWAY_UNREACHABLE"), 10)))
        .containsExactly(fresh);
  }

  @Test
  void recordCheck_ownedRow_isRecorded_staleAttemptOrFinishedRow_isNot() throws Exception {
    String key = newKey();
    ClaimedKey claim = store.claim(request(key, HASH, LONG, LONG, true)).record().claimedKey();
    Instant before = Instant.now().minusSeconds(1);

    assertThat(administration.recordCheck(claim, "GATEWAY_UNREACHABLE", "connection refused"))
        .isTrue();
    IdempotencyRecord checked = store.find(TENANT, OPERATION, key).orElseThrow();
    assertThat(checked.lastCheck()).isEqualTo("GATEWAY_UNREACHABLE");
    assertThat(checked.lastCheckDetail()).isEqualTo("connection refused");
    assertThat(checked.lastCheckedAt()).isAfter(before);

    ClaimedKey stale =
        new ClaimedKey(claim.tenant(), claim.operation(), claim.key(), claim.attempt() + 1);
    assertThat(administration.recordCheck(stale, "NEEDS_OPERATOR", null)).isFalse();
    assertThat(store.find(TENANT, OPERATION, key).orElseThrow().lastCheck())
        .isEqualTo("GATEWAY_UNREACHABLE");
    // A finished key has no check left to show, and takes none.
    assertThat(store.complete(claim, response("x"))).isTrue();
    assertThat(administration.recordCheck(claim, "NEEDS_OPERATOR", null)).isFalse();
    assertThat(store.find(TENANT, OPERATION, key).orElseThrow().lastCheck()).isNull();
  }

  @Test
  void listProcessing_filtersPagesAndCountsOnTheServer() throws Exception {
    List<String> mine = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      mine.add(claimProcessing(OPERATION));
    }
    store.claim(new ClaimRequest("bob", OPERATION, newKey(), HASH, LONG, LONG, false));
    claimProcessing("payments.charge");
    String done = newKey();
    store.complete(
        store.claim(request(done, HASH, LONG, LONG, false)).record().claimedKey(), response("d"));
    administration.recordCheck(
        store.find(TENANT, OPERATION, mine.get(3)).orElseThrow().claimedKey(),
        "NEEDS_OPERATOR",
        null);
    ProcessingQuery aliceOrders = new ProcessingQuery(TENANT, OPERATION, null, null);
    ProcessingPage first = administration.listProcessing(aliceOrders, 0, 2);
    ProcessingPage third = administration.listProcessing(aliceOrders, 4, 2);
    assertThat(first.total()).isEqualTo(5);
    assertThat(keys(first.rows())).containsExactly(mine.get(0), mine.get(1));
    assertThat(keys(third.rows())).containsExactly(mine.get(4));

    assertThat(
            administration
                .listProcessing(new ProcessingQuery(null, null, null, null), 0, 100)
                .total())
        .isEqualTo(7);
    assertThat(
            administration
                .listProcessing(new ProcessingQuery("bob", null, null, null), 0, 10)
                .total())
        .isEqualTo(1);
    assertThat(
            keys(
                administration
                    .listProcessing(new ProcessingQuery(null, null, "NEEDS_OPERATOR", null), 0, 10)
                    .rows()))
        .containsExactly(mine.get(3));
    assertThat(
            administration
                .listProcessing(
                    new ProcessingQuery(TENANT, OPERATION, ProcessingQuery.NEVER_CHECKED, null),
                    0,
                    10)
                .total())
        .isEqualTo(4);
    assertThat(
            administration
                .listProcessing(
                    new ProcessingQuery(null, null, null, Duration.ofSeconds(60)), 0, 10)
                .total())
        .isZero();
    ageAll(Duration.ofMinutes(2));
    assertThat(
            administration
                .listProcessing(
                    new ProcessingQuery(TENANT, OPERATION, null, Duration.ofSeconds(60)), 0, 10)
                .total())
        .isEqualTo(5);
  }

  @Test
  void statistics_countsRowsByOperationStatusAndAge_andExpiredLeases() throws Exception {
    claimProcessing(OPERATION);
    claimProcessing(OPERATION);
    String done = newKey();
    store.complete(
        store.claim(request(done, HASH, LONG, LONG, false)).record().claimedKey(), response("d"));
    store.claim(
        new ClaimRequest(TENANT, "payments.charge", newKey(), HASH, SHORT_LEASE, LONG, true));
    pastShortLease();

    KeyStatistics stats = administration.statistics();
    assertThat(stats.processing(OPERATION)).isEqualTo(2);
    assertThat(stats.processing("payments.charge")).isEqualTo(1);
    assertThat(stats.processingByAge(OPERATION))
        .containsEntry(KeyStatistics.AgeBucket.UNDER_1_MIN, 2L)
        .containsEntry(KeyStatistics.AgeBucket.OLDER, 0L);
    assertThat(stats.expiredLeases()).containsExactly(Map.entry("payments.charge", 1L));
    assertThat(stats.oldestProcessing(OPERATION)).isBefore(stats.takenAt());
    assertThat(stats.groups())
        .anySatisfy(
            g -> {
              assertThat(g.operation()).isEqualTo(OPERATION);
              assertThat(g.status()).isEqualTo(RecordStatus.COMPLETED);
              assertThat(g.rows()).isEqualTo(1);
            });

    // Two days later, the same rows are all in the oldest bucket.
    ageAll(Duration.ofDays(2));
    KeyStatistics dayLater = administration.statistics();
    assertThat(dayLater.processingByAge(OPERATION))
        .containsEntry(KeyStatistics.AgeBucket.OLDER, 2L)
        .containsEntry(KeyStatistics.AgeBucket.UNDER_1_MIN, 0L);
    assertThat(dayLater.expiredLeases()).containsEntry(OPERATION, 2L);
  }

  @Test
  void purgeRuns_recordedAndReadNewestFirst() {
    Instant start = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
    String node = "node-" + newKey();
    administration.recordPurgeRun(new PurgeRun(start, node, "schedule", 12, 34));
    administration.recordPurgeRun(new PurgeRun(start.plusSeconds(1), node, "operator", 0, 5));

    List<PurgeRun> runs = administration.recentPurgeRuns(2);
    assertThat(runs)
        .containsExactly(
            new PurgeRun(start.plusSeconds(1), node, "operator", 0, 5),
            new PurgeRun(start, node, "schedule", 12, 34));
  }

  @Test
  void tableSizeBytes_whenReported_isPositive() {
    claimProcessingQuietly();
    assertThat(administration.tableSizeBytes())
        .satisfiesAnyOf(
            size -> assertThat(size).isEmpty(), size -> assertThat(size.getAsLong()).isPositive());
    assertThat(administration.tableSizeBytes().isPresent()).isEqualTo(reportsTableSize());
  }

  /** Whether this database tells the size of a table (an in-memory H2 does not). */
  abstract boolean reportsTableSize();

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

    assertThat(skewed(SKEW.negated()).administration().purgeExpired(100)).isEqualTo(1);
    assertThat(store.find(TENANT, OPERATION, key)).isEmpty();
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
    assertThat(reuse.record().requestHash()).isEqualTo(HASH);
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

  /** {@code IdempotencyKeys} over {@code store} and its administration. */
  private static com.banhang.idempotency.IdempotencyKeys keysOver(JdbcIdempotencyStore store) {
    return RecordsOver.store(store, store.administration());
  }

  private String completedKey() {
    String key = newKey();
    store.complete(
        store.claim(request(key, HASH, LONG, LONG, true)).record().claimedKey(), response(key));
    return key;
  }

  /** Moves the claim and the lease of every row {@code by} into the past. */
  void ageAll(Duration by) throws SQLException {
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

  // ------------------------------------------------------------------ helpers

  static String newKey() {
    return UUID.randomUUID().toString();
  }

  static ClaimRequest request(
      String key, String hash, Duration lease, Duration ttl, boolean takeover) {
    return new ClaimRequest(TENANT, OPERATION, key, hash, lease, ttl, takeover);
  }

  /** A response with a body that is not text, so that any re-encoding would show. */
  static StoredResponse response(String id) {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Location", "/api/v1/orders/" + id);
    headers.put("Content-Type", "application/json");
    byte[] body =
        ("{\"id\":\"" + id + "\"}\u0000\u00ff")
            .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
    return new StoredResponse(201, headers, body);
  }

  static StoredResponse problem() {
    return new StoredResponse(
        409,
        Map.of("Content-Type", "application/problem+json"),
        "{\"type\":\"payment-outcome-unknown\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  private String claimProcessing(String operation) throws InterruptedException {
    String key = newKey();
    store.claim(new ClaimRequest(TENANT, operation, key, HASH, LONG, LONG, false));
    Thread.sleep(5);
    return key;
  }

  private void claimProcessingQuietly() {
    store.claim(new ClaimRequest(TENANT, OPERATION, newKey(), HASH, LONG, LONG, false));
  }

  private static List<String> keys(List<IdempotencyRecord> records) {
    return records.stream().map(IdempotencyRecord::key).toList();
  }

  private String resourceRef(String key) {
    try (Connection connection = dataSource().getConnection();
        PreparedStatement select =
            connection.prepareStatement(
                "SELECT resource_ref FROM idempotency_record WHERE idempotency_key = ?")) {
      select.setString(1, key);
      try (ResultSet rs = select.executeQuery()) {
        assertThat(rs.next()).isTrue();
        return rs.getString(1);
      }
    } catch (SQLException e) {
      throw new AssertionError(e);
    }
  }

  /** Runs {@code threads} real threads that start the call together, and collects every result. */
  static <T> List<T> race(int threads, Callable<T> call) throws Exception {
    CyclicBarrier start = new CyclicBarrier(threads);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<T>> futures = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        futures.add(
            pool.submit(
                () -> {
                  start.await(10, TimeUnit.SECONDS);
                  return call.call();
                }));
      }
      List<T> results = new ArrayList<>();
      for (Future<T> future : futures) {
        results.add(future.get(20, TimeUnit.SECONDS));
      }
      return results;
    } finally {
      pool.shutdownNow();
    }
  }

  static void pastShortLease() throws InterruptedException {
    Thread.sleep(SHORT_LEASE.toMillis() + 100);
  }

  static void pastShortTtl() throws InterruptedException {
    Thread.sleep(SHORT_TTL.toMillis() + 150);
  }
}
