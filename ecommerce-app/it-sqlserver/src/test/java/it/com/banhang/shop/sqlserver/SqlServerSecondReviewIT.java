package it.com.banhang.shop.sqlserver;

import static io.restassured.RestAssured.given;
import static it.com.banhang.shop.Payments.newOrder;
import static it.com.banhang.shop.Payments.pay;
import static it.com.banhang.shop.ShopApi.newKey;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.banhang.idempotency.ClaimedKey;
import com.banhang.idempotency.StoredResponse;
import com.banhang.idempotency.jdbc.SqlServerIdempotencyStore;
import com.banhang.idempotency.spi.IdempotencyStore.ClaimRequest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import it.com.banhang.shop.Sandbox;
import it.com.banhang.shop.ShopApi;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

/**
 * The second SQL Server review (docs/sqlserver.md, "Second review"), for the first run against a
 * real server: the claim locks one key and nothing coarser, keys that share an index gap never wait
 * for each other, the plain statements of a key convert no key column, READPAST stays valid when
 * READ_COMMITTED_SNAPSHOT is switched on after the shop started, and a connection lost in the
 * middle of a payment leaves a key that reconciliation settles. Never run where this project is
 * built (no SQL Server there). The login needs VIEW SERVER STATE (plans, locks), ALTER on the
 * database (READ_COMMITTED_SNAPSHOT) and ALTER ANY CONNECTION (KILL).
 */
@Order(3)
@EnabledIfEnvironmentVariable(
    named = "SQLSERVER_JDBC_URL",
    matches = ".+",
    disabledReason = SqlServer.SKIPPED)
class SqlServerSecondReviewIT {

  private static final String HASH = "a".repeat(64);

  // ------------------------------------------------------------------ one key, not a range

  @Test
  void aHeldInTransactionClaim_locksItsKeyAndNothingCoarser_andNeighboursInItsGapDoNotWait()
      throws Exception {
    // A tenant of its own on an otherwise empty stretch of the index: every key of the test falls
    // in one gap, where V8's HOLDLOCK took one RangeS-U lock that all of them needed.
    String tenant = "gap-" + newKey().substring(0, 12);
    try (Connection owner = SqlServer.connect()) {
      owner.setAutoCommit(false);
      assertThat(SqlServer.claimInTransaction(owner, tenant, "orders.create", "key-b", 1_000))
          .isTrue();

      List<Object[]> locks =
          SqlServer.rows(
              "SELECT resource_type, request_mode, resource_description FROM sys.dm_tran_locks"
                  + " WHERE request_session_id = ? AND resource_database_id = DB_ID()"
                  + " AND resource_type <> 'DATABASE'",
              sessionId(owner));
      System.out.println("locks of a held in-transaction claim of a new key:");
      locks.forEach(l -> System.out.println("  " + l[0] + " " + l[1] + " " + l[2]));
      assertThat(locks)
          .as("exactly one lock on the key itself")
          .filteredOn(l -> "APPLICATION".equals(l[0]))
          .hasSize(1)
          .allSatisfy(l -> assertThat(l[1]).isEqualTo("X"));
      assertThat(locks)
          .as("no key-range lock, and nothing coarser than intent on pages or the table")
          .filteredOn(l -> !"APPLICATION".equals(l[0]))
          .noneSatisfy(l -> assertThat(String.valueOf(l[1])).matches("Range.*|S|U|X|SIX|SIU|UIX"));

      // Neighbours in the same gap: other keys of this tenant and operation, the same key of
      // another operation (a payments.charge claim committed on its own), all without waiting.
      long started = System.nanoTime();
      boolean neighboura =
          withOwnConnection(
              c -> SqlServer.claimInTransaction(c, tenant, "orders.create", "key-a", 300));
      assertThat(neighboura).isTrue();
      boolean neighbourc =
          withOwnConnection(
              c -> SqlServer.claimInTransaction(c, tenant, "orders.create", "key-c", 300));
      assertThat(neighbourc).isTrue();
      try (Connection payments = SqlServer.connect()) {
        assertThat(SqlServer.claim(payments, tenant, "payments.charge", "key-b")).isTrue();
      }
      assertThat(Duration.ofNanos(System.nanoTime() - started))
          .as("three claims beside a held key, none waiting for it")
          .isLessThan(Duration.ofSeconds(2));
      owner.rollback();
    }
  }

  @Test
  void twoHundredConcurrentNewKeysOnOneTenant_allWon_noneRefusedForALockWait() throws Exception {
    String tenant = "burst-" + newKey().substring(0, 12);
    int keys = 200;
    ExecutorService pool = Executors.newFixedThreadPool(32);
    try {
      List<Future<Boolean>> results = new ArrayList<>();
      for (int i = 0; i < keys; i++) {
        String key = "k-" + i;
        results.add(
            pool.submit(
                () -> {
                  return withOwnConnection(
                      c -> {
                        boolean won =
                            SqlServer.claimInTransaction(c, tenant, "orders.create", key, 2_000);
                        // The business transaction's length, held with the key.
                        Thread.sleep(20);
                        return won;
                      });
                }));
      }
      int won = 0;
      for (Future<Boolean> result : results) {
        won += result.get(2, TimeUnit.MINUTES) ? 1 : 0;
      }
      assertThat(won).isEqualTo(keys);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void anOwnerThatRollsBack_leavesTheKeyToItsWaiter_whoThenOwnsIt() throws Exception {
    String tenant = "rollback-" + newKey().substring(0, 12);
    ExecutorService thread = Executors.newSingleThreadExecutor();
    try (Connection owner = SqlServer.connect()) {
      owner.setAutoCommit(false);
      assertThat(SqlServer.claimInTransaction(owner, tenant, "orders.create", "k", 1_000)).isTrue();
      Future<Boolean> waiter =
          thread.submit(
              () ->
                  withOwnConnection(
                      c -> SqlServer.claimInTransaction(c, tenant, "orders.create", "k", 10_000)));
      Thread.sleep(300);
      assertThat(waiter).as("the waiter waits for the key's lock").isNotDone();
      owner.rollback();
      assertThat(waiter.get(10, TimeUnit.SECONDS)).as("the key is free again: won").isTrue();
    } finally {
      thread.shutdownNow();
    }
  }

  // ------------------------------------------------------------------ plans of the plain
  // statements

  @Test
  void completionReleaseAndFind_seekThePrimaryKey_withoutConvertingOperationOrKey()
      throws Exception {
    SqlServerIdempotencyStore store = SqlServer.store();
    String tenant = "plans-" + newKey().substring(0, 12);
    ClaimedKey completed = store.claim(request(tenant, "it.plans", newKey())).record().claimedKey();
    store.complete(completed, new StoredResponse(201, Map.of(), new byte[] {1}));
    ClaimedKey released = store.claim(request(tenant, "it.plans", newKey())).record().claimedKey();
    store.release(released);
    assertThat(store.find(tenant, "it.plans", completed.key())).isPresent();

    for (String like :
        List.of(
            "%UPDATE IDEMPOTENCY_RECORD SET STATUS = 'COMPLETED'%",
            "%UPDATE IDEMPOTENCY_RECORD SET STATUS = 'RELEASED'%",
            "%FROM IDEMPOTENCY_RECORD WHERE TENANT_ID = @P0 AND OPERATION = CAST(@P1%")) {
      String plan = Plans.statementPlan(like, like);
      assertThat(plan).as(like).contains("Index=\"[pk_idempotency_record]\"");
      assertThat(Plans.SCAN.matcher(plan).find()).as(like + ": no scan").isFalse();
      for (String column : List.of("tenant_id", "operation", "idempotency_key")) {
        Plans.assertNoConversionOf(like, plan, "idempotency_record", column);
      }
    }
  }

  // ------------------------------------------------------------------ READ_COMMITTED_SNAPSHOT

  @Test
  void readCommittedSnapshotSwitchedAfterTheStoreStarted_purgeAndReaderStillRun() throws Exception {
    SqlServerIdempotencyStore store = SqlServer.store();
    boolean wasOn = readCommittedSnapshot();
    try {
      for (boolean on : List.of(!wasOn, wasOn)) {
        switchReadCommittedSnapshot(on);
        assertThat(readCommittedSnapshot()).isEqualTo(on);
        // The same store object, whose hints were chosen before the switch.
        assertThat(store.administration().purgeExpired(100)).isNotNegative();
        assertThat(store.administration().findProcessing("it.rcsi", Duration.ZERO, Set.of(), 10))
            .isNotNull();
      }
    } finally {
      switchReadCommittedSnapshot(wasOn);
    }
  }

  private static boolean readCommittedSnapshot() throws SQLException {
    return SqlServer.number(
            "SELECT CAST(is_read_committed_snapshot_on AS int) FROM sys.databases"
                + " WHERE database_id = DB_ID()")
        == 1;
  }

  /** Ends other sessions' transactions in this database at once (ROLLBACK IMMEDIATE). */
  private static void switchReadCommittedSnapshot(boolean on) throws SQLException {
    try (Connection connection = SqlServer.connect();
        Statement statement = connection.createStatement()) {
      statement.execute(
          "ALTER DATABASE CURRENT SET READ_COMMITTED_SNAPSHOT "
              + (on ? "ON" : "OFF")
              + " WITH ROLLBACK IMMEDIATE");
    }
  }

  // ------------------------------------------------------------------ connection lost mid-payment

  /**
   * A failover seen from the shop: while a payment's gateway call is under way (its key claimed and
   * committed), every connection of the shop's pool is killed, so the shop's next statement fails
   * with SQLSTATE 08S01. Whatever the first answer, the key must end settled by reconciliation as
   * the gateway says, answered the same on a retry, and the customer charged once.
   */
  @Test
  void connectionsLostWhileAPaymentIsAtTheGateway_keySettledByReconciliation_chargedOnce()
      throws Exception {
    String orderId = newOrder("alice");
    String key = newKey();
    Sandbox.faults("{\"latencyMs\":3000,\"latencyPhase\":\"AFTER_CHARGE\"}");
    ExecutorService client = Executors.newSingleThreadExecutor();
    try {
      Future<Response> first = client.submit(() -> pay("alice", orderId, key, "pm_card_ok"));
      await()
          .atMost(Duration.ofSeconds(20))
          .until(
              () ->
                  SqlServer.number(
                          "SELECT COUNT(*) FROM idempotency_record WHERE operation ="
                              + " 'payments.charge' AND idempotency_key = ?",
                          key)
                      == 1);
      int killed = killOtherSessions();
      assertThat(killed).as("the shop's pooled connections").isPositive();
      Response answer = first.get(60, TimeUnit.SECONDS);
      System.out.println("first answer after the connections were lost: " + answer.statusCode());
      assertThat(answer.statusCode()).as(answer.asString()).isIn(201, 409, 503);
    } finally {
      Sandbox.noFaults();
      client.shutdownNow();
    }

    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofSeconds(2))
        .ignoreExceptions()
        .until(
            () -> {
              reconcileNow();
              return SqlServer.number(
                      "SELECT COUNT(*) FROM idempotency_record WHERE operation = 'payments.charge'"
                          + " AND idempotency_key = ? AND status = 'COMPLETED'",
                      key)
                  == 1;
            });
    Response retry = pay("alice", orderId, key, "pm_card_ok");
    assertThat(retry.statusCode()).as(retry.asString()).isEqualTo(201);
    assertThat(Sandbox.charges(orderId)).as("the customer is charged once").isEqualTo(1);
  }

  /** KILLs every session in this database but this one; how many. */
  private static int killOtherSessions() throws SQLException {
    List<Object[]> sessions =
        SqlServer.rows(
            "SELECT session_id FROM sys.dm_exec_sessions WHERE is_user_process = 1"
                + " AND database_id = DB_ID() AND session_id <> @@SPID");
    try (Connection connection = SqlServer.connect();
        Statement statement = connection.createStatement()) {
      for (Object[] session : sessions) {
        statement.execute("KILL " + ((Number) session[0]).intValue());
      }
    }
    return sessions.size();
  }

  private static void reconcileNow() {
    given()
        .baseUri(ShopApi.URL)
        .auth()
        .preemptive()
        .basic("operator", "operator-secret")
        .contentType(ContentType.JSON)
        .header("X-Requested-By", "banhang-it")
        .queryParam("minAge", "PT0S")
        .post("/api/v1/admin/reconciliations")
        .then()
        .statusCode(200);
  }

  // ------------------------------------------------------------------ helpers

  private static ClaimRequest request(String tenant, String operation, String key) {
    return new ClaimRequest(
        tenant, operation, key, HASH, Duration.ofMinutes(10), Duration.ofHours(1), false);
  }

  @FunctionalInterface
  interface OnConnection<T> {
    T run(Connection connection) throws Exception;
  }

  /** {@code call} in a transaction of its own connection, rolled back at the end. */
  private static <T> T withOwnConnection(OnConnection<T> call) throws Exception {
    try (Connection connection = SqlServer.connect()) {
      connection.setAutoCommit(false);
      try {
        return call.run(connection);
      } finally {
        connection.rollback();
      }
    }
  }

  private static int sessionId(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery("SELECT @@SPID")) {
      rs.next();
      return rs.getInt(1);
    }
  }
}
