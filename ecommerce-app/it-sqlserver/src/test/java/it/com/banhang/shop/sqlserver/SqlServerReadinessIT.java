package it.com.banhang.shop.sqlserver;

import static it.com.banhang.shop.Payments.newOrder;
import static it.com.banhang.shop.Payments.pay;
import static it.com.banhang.shop.ShopApi.newKey;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.banhang.idempotency.IdempotencyRecord;
import com.banhang.idempotency.jdbc.SqlServerIdempotencyStore;
import com.banhang.idempotency.spi.IdempotencyStore.ClaimRequest;
import io.restassured.response.Response;
import it.com.banhang.shop.Sandbox;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

/**
 * What a first run on a real SQL Server must establish beyond the HTTP suite (docs/sqlserver.md,
 * "First run"): the settings and column types the shop relies on, the claim procedure's guard,
 * seeks without conversions of key columns in the plans the shop's statements really got, no
 * deadlock under concurrent payments, and purge and reconciliation reads that skip locked rows.
 */
@Order(2)
@EnabledIfEnvironmentVariable(
    named = "SQLSERVER_JDBC_URL",
    matches = ".+",
    disabledReason = SqlServer.SKIPPED)
class SqlServerReadinessIT {

  private static final String BIN2 = "Latin1_General_100_BIN2";
  private static final String HASH = "a".repeat(64);

  /** A tenant and operations of this class only: the shop never claims them. */
  private static final String TENANT = "it-sqlserver";

  // ------------------------------------------------------------------ (c) settings

  @Test
  void database_hasTheSettingsAndKeyColumnTypesTheShopReliesOn() throws Exception {
    Object[] db =
        SqlServer.rows(
                "SELECT compatibility_level, collation_name, is_read_committed_snapshot_on,"
                    + " snapshot_isolation_state_desc FROM sys.databases WHERE database_id = DB_ID()")
            .get(0);
    System.out.printf(
        "SQL Server database: compatibility level %s, default collation %s,"
            + " READ_COMMITTED_SNAPSHOT %s, snapshot isolation %s%n",
        db[0], db[1], db[2], db[3]);
    assertThat(((Number) db[0]).intValue())
        .as("compatibility level (the scripts were reviewed for 130, SQL Server 2016, and later)")
        .isGreaterThanOrEqualTo(130);

    Map<String, String> columns = new LinkedHashMap<>();
    for (Object[] row :
        SqlServer.rows(
            "SELECT t.name, c.name, ty.name, c.collation_name FROM sys.columns c"
                + " JOIN sys.tables t ON t.object_id = c.object_id"
                + " JOIN sys.types ty ON ty.user_type_id = c.user_type_id"
                + " WHERE t.schema_id = SCHEMA_ID('dbo')")) {
      columns.put(row[0] + "." + row[1], row[2] + " " + row[3]);
    }
    Map<String, String> expected = new LinkedHashMap<>();
    expected.put("idempotency_record.tenant_id", "nvarchar " + BIN2);
    expected.put("idempotency_record.operation", "varchar " + BIN2);
    expected.put("idempotency_record.idempotency_key", "varchar " + BIN2);
    expected.put("idempotency_record.request_hash", "varchar " + BIN2);
    expected.put("shop_order.id", "nvarchar " + BIN2);
    expected.put("shop_order.tenant_id", "nvarchar " + BIN2);
    expected.put("shop_order.merchant_order_id", "varchar " + BIN2);
    expected.put("order_line.order_id", "nvarchar " + BIN2);
    expected.put("payment.id", "nvarchar " + BIN2);
    expected.put("payment.tenant_id", "nvarchar " + BIN2);
    expected.put("payment.order_id", "nvarchar " + BIN2);
    expected.put("payment.active_order_id", "nvarchar " + BIN2);
    expected.put("payment.idempotency_key", "nvarchar " + BIN2);
    expected.put("operator_audit.tenant_id", "nvarchar " + BIN2);
    expected.put("operator_audit.idempotency_key", "varchar " + BIN2);
    assertThat(columns).containsAllEntriesOf(expected);

    // Filtered indexes need both options on for every write; modules keep those of their creation.
    List<Object[]> modules =
        SqlServer.rows(
            "SELECT OBJECT_NAME(object_id), uses_ansi_nulls, uses_quoted_identifier"
                + " FROM sys.sql_modules WHERE object_id IN"
                + " (OBJECT_ID('dbo.usp_idempotency_claim'),"
                + " OBJECT_ID('dbo.tr_operator_audit_append_only'))");
    assertThat(modules).hasSize(2);
    assertThat(modules)
        .allSatisfy(
            m -> {
              assertThat(m[1]).as(m[0] + " uses_ansi_nulls").isEqualTo(Boolean.TRUE);
              assertThat(m[2]).as(m[0] + " uses_quoted_identifier").isEqualTo(Boolean.TRUE);
            });
  }

  // ------------------------------------------------------------------ the procedure's guard

  @Test
  void claimProcedure_refusesACallersTransaction_explicitOrImplicit_andCommitsOnItsOwnOtherwise()
      throws Exception {
    // Auto-commit off: the driver turns IMPLICIT_TRANSACTIONS on; @@TRANCOUNT is 0 at entry.
    try (Connection connection = SqlServer.connect()) {
      connection.setAutoCommit(false);
      assertRefused(() -> callClaim(connection, TENANT, newKey()), 50001);
      connection.rollback();
    }
    // An explicit transaction on a connection in auto-commit mode.
    try (Connection connection = SqlServer.connect()) {
      try (Statement statement = connection.createStatement()) {
        statement.execute("BEGIN TRANSACTION");
      }
      assertRefused(() -> callClaim(connection, TENANT, newKey()), 50001);
      try (Statement statement = connection.createStatement()) {
        statement.execute("IF @@TRANCOUNT > 0 ROLLBACK");
      }
    }
    // A value longer than its column is refused, never claimed truncated.
    try (Connection connection = SqlServer.connect()) {
      assertRefused(() -> callClaim(connection, "t".repeat(101), newKey()), 50002);
    }
    // Outside any transaction the claim commits on its own: another session sees it at once.
    String key = newKey();
    try (Connection connection = SqlServer.connect()) {
      assertThat(callClaim(connection, TENANT, key)).as("won").isTrue();
    }
    try (Connection other = SqlServer.connect()) {
      try (Statement statement = other.createStatement()) {
        statement.execute("SET LOCK_TIMEOUT 5000");
      }
      try (PreparedStatement select =
          other.prepareStatement(
              "SELECT status FROM idempotency_record WHERE tenant_id = ? AND operation = ?"
                  + " AND idempotency_key = ?")) {
        select.setString(1, TENANT);
        select.setString(2, "it.guard");
        select.setString(3, key);
        try (ResultSet rs = select.executeQuery()) {
          assertThat(rs.next()).isTrue();
          assertThat(rs.getString(1)).isEqualTo("PROCESSING");
        }
      }
    }
  }

  @Test
  void claimInTransactionProcedure_holdsTheKeyUntilTheCallersCommit_boundsTheWait()
      throws Exception {
    // Outside any transaction the lock would protect nothing: refused.
    try (Connection connection = SqlServer.connect()) {
      assertRefused(() -> callClaimInTransaction(connection, newKey(), 1_000), 50003);
    }
    String key = newKey();
    try (Connection owner = SqlServer.connect();
        Connection waiter = SqlServer.connect()) {
      owner.setAutoCommit(false);
      waiter.setAutoCommit(false);
      assertThat(callClaimInTransaction(owner, key, 1_000)).as("the owner wins").isTrue();
      // While the owner's transaction holds the key's lock, another claim of it waits, then fails
      // (50004: sp_getapplock not granted in time, V10).
      long started = System.nanoTime();
      assertRefused(() -> callClaimInTransaction(waiter, key, 300), 50004);
      assertThat(java.time.Duration.ofNanos(System.nanoTime() - started))
          .isBetween(java.time.Duration.ofMillis(250), java.time.Duration.ofSeconds(5));
      waiter.rollback();
      // The owner writes its row once, completed, and commits; the next claim replays it.
      try (PreparedStatement insert =
          owner.prepareStatement(
              "INSERT INTO idempotency_record (tenant_id, operation, idempotency_key,"
                  + " request_hash, status, attempt, locked_until, created_at, completed_at,"
                  + " expires_at, response_code) VALUES (?, 'it.guard', ?, ?, 'COMPLETED', 1,"
                  + " SYSDATETIMEOFFSET(), SYSDATETIMEOFFSET(), SYSDATETIMEOFFSET(),"
                  + " DATEADD(hour, 1, SYSDATETIMEOFFSET()), 201)")) {
        insert.setString(1, TENANT);
        insert.setString(2, key);
        insert.setString(3, HASH);
        assertThat(insert.executeUpdate()).isEqualTo(1);
      }
      owner.commit();
      assertThat(callClaimInTransaction(waiter, key, 1_000)).as("completed: not won").isFalse();
      waiter.rollback();
    }
  }

  /** {@code dbo.usp_idempotency_claim_in_transaction} of sql/sqlserver V10: whether it won. */
  private static boolean callClaimInTransaction(Connection connection, String key, int waitMs)
      throws SQLException {
    return SqlServer.claimInTransaction(connection, TENANT, "it.guard", key, waitMs);
  }

  private static boolean callClaim(Connection connection, String tenant, String key)
      throws SQLException {
    return SqlServer.claim(connection, tenant, "it.guard", key);
  }

  private static void assertRefused(ThrowingCall call, int errorNumber) {
    assertThatThrownBy(call::run)
        .isInstanceOf(SQLException.class)
        .satisfies(e -> assertThat(((SQLException) e).getErrorCode()).isEqualTo(errorNumber));
  }

  @FunctionalInterface
  interface ThrowingCall {
    void run() throws Exception;
  }

  // ------------------------------------------------------------------ (a) execution plans

  @Test
  void executionPlans_ofTheShopsClaimLockAndVersionedUpdates_seekWithoutConvertingKeyColumns()
      throws Exception {
    // One captured payment runs every statement checked here: the claim, the payment's insert,
    // EclipseLink's lock (SELECT ... FROM payment WITH (UPDLOCK) WHERE (id = ?)), the versioned
    // UPDATEs of the payment and of its order, and the key's completion.
    String orderId = newOrder("alice");
    Response paid = pay("alice", orderId, newKey(), "pm_card_ok");
    assertThat(paid.statusCode()).as(paid.asString()).isEqualTo(201);

    String claim =
        Plans.onePlan(
            "the claim procedure",
            "SELECT p.query_plan FROM sys.dm_exec_procedure_stats s"
                + " CROSS APPLY sys.dm_exec_text_query_plan(s.plan_handle, 0, -1) p"
                + " WHERE s.database_id = DB_ID()"
                + " AND s.object_id = OBJECT_ID('dbo.usp_idempotency_claim')");
    Plans.assertSeeks(
        "claim",
        claim,
        "idempotency_record",
        "pk_idempotency_record",
        "tenant_id",
        "operation",
        "idempotency_key");

    String lock = Plans.statementPlan("the payment lock", "%FROM PAYMENT WITH (UPDLOCK)%");
    Plans.assertSeeks("payment lock", lock, "payment", "pk_payment", "id");
    String paymentUpdate =
        Plans.statementPlan("the payment's versioned update", "%UPDATE PAYMENT SET%");
    Plans.assertSeeks("payment update", paymentUpdate, "payment", "pk_payment", "id");
    String orderUpdate =
        Plans.statementPlan("the order's versioned update", "%UPDATE SHOP_ORDER SET%");
    Plans.assertSeeks("order update", orderUpdate, "shop_order", "pk_shop_order", "id");

    // The key's completion types its operation and key parameters as varchar (the columns' type),
    // so nothing converts a key column and the primary key is sought.
    String completion =
        Plans.statementPlan(
            "the key's completion", "%UPDATE IDEMPOTENCY_RECORD SET STATUS = 'COMPLETED'%");
    assertThat(completion).as("completion: a seek").contains("Index=\"[pk_idempotency_record]\"");
    assertThat(Plans.SCAN.matcher(completion).find()).as("completion: no scan").isFalse();
    Plans.assertNoConversionOf("completion", completion, "idempotency_record", "tenant_id");
    Plans.assertNoConversionOf("completion", completion, "idempotency_record", "operation");
    Plans.assertNoConversionOf("completion", completion, "idempotency_record", "idempotency_key");
  }

  // ------------------------------------------------------------------ (b) deadlocks

  @Test
  void concurrentPayments_ofTenOrdersWithDuplicates_causeNoDeadlock() throws Exception {
    List<String> orders = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      orders.add(newOrder("alice"));
    }
    List<Callable<Response>> attempts = new ArrayList<>();
    for (String orderId : orders) {
      String key = newKey();
      for (int copy = 0; copy < 3; copy++) {
        attempts.add(() -> pay("alice", orderId, key, "pm_card_ok"));
      }
    }
    long before = SqlServer.deadlocks();
    List<Response> responses;
    Sandbox.faults("{\"latencyMs\":200}");
    try {
      responses = race(attempts);
    } finally {
      Sandbox.noFaults();
    }
    long deadlocks = SqlServer.deadlocks() - before;

    assertThat(responses).allSatisfy(r -> assertThat(r.statusCode()).isIn(201, 409));
    for (String orderId : orders) {
      assertThat(Sandbox.charges(orderId)).as("charges of " + orderId).isEqualTo(1);
    }
    assertThat(deadlocks).as("deadlocks on the instance during 30 concurrent payments").isZero();
  }

  private static <T> List<T> race(List<Callable<T>> calls) throws Exception {
    CyclicBarrier start = new CyclicBarrier(calls.size());
    ExecutorService pool = Executors.newFixedThreadPool(calls.size());
    try {
      List<Future<T>> futures = new ArrayList<>();
      for (Callable<T> call : calls) {
        futures.add(
            pool.submit(
                () -> {
                  start.await(30, TimeUnit.SECONDS);
                  return call.call();
                }));
      }
      List<T> results = new ArrayList<>();
      for (Future<T> future : futures) {
        results.add(future.get(120, TimeUnit.SECONDS));
      }
      return results;
    } finally {
      pool.shutdownNow();
    }
  }

  // ------------------------------------------------------------------ READPAST

  @Test
  void purge_skipsAnExpiredRowAnotherTransactionHoldsLocked_insteadOfWaitingForIt()
      throws Exception {
    String operation = "it.purge." + newKey();
    String locked = newKey();
    String free = newKey();
    insertExpiredCompleted(operation, locked);
    insertExpiredCompleted(operation, free);
    SqlServerIdempotencyStore store = store();

    try (Connection holder = SqlServer.connect()) {
      holder.setAutoCommit(false);
      lockRow(holder, operation, locked);
      // Without READPAST this purge waits for the holder, which waits for the purge's answer.
      withoutWaitingForLocks(() -> store.administration().purgeExpired(1_000));
      holder.rollback();
    }
    assertThat(store.find(TENANT, operation, free)).as("the free row is purged").isEmpty();
    assertThat(store.find(TENANT, operation, locked)).as("the locked row was skipped").isPresent();
    store.administration().purgeExpired(1_000);
    assertThat(store.find(TENANT, operation, locked)).as("purged once free").isEmpty();
  }

  @Test
  void reconciliationReader_doesNotWaitForAProcessingRowAnotherTransactionHoldsLocked()
      throws Exception {
    String operation = "it.reader." + newKey();
    SqlServerIdempotencyStore store = store();
    String locked = newKey();
    String free = newKey();
    store.claim(claim(operation, locked));
    store.claim(claim(operation, free));
    // A negative minimum age: every processing row, however recent its claim.
    Duration anyAge = Duration.ofSeconds(-60);

    List<IdempotencyRecord> found;
    try (Connection holder = SqlServer.connect()) {
      holder.setAutoCommit(false);
      lockRow(holder, operation, locked);
      found =
          withoutWaitingForLocks(
              () -> store.administration().findProcessing(operation, anyAge, Set.of(), 10));
      holder.rollback();
    }
    // READCOMMITTEDLOCK: the locked row is skipped whether READ_COMMITTED_SNAPSHOT is on or off.
    assertThat(found.stream().map(IdempotencyRecord::key).toList()).containsExactly(free);
  }

  private static SqlServerIdempotencyStore store() {
    return SqlServer.store();
  }

  private static ClaimRequest claim(String operation, String key) {
    return new ClaimRequest(
        TENANT, operation, key, HASH, Duration.ofMinutes(10), Duration.ofHours(1), false);
  }

  private static void insertExpiredCompleted(String operation, String key) throws SQLException {
    try (Connection connection = SqlServer.connect();
        PreparedStatement insert =
            connection.prepareStatement(
                "INSERT INTO idempotency_record (tenant_id, operation, idempotency_key,"
                    + " request_hash, status, attempt, locked_until, created_at, completed_at,"
                    + " expires_at) VALUES (?, ?, ?, ?, 'COMPLETED', 1,"
                    + " DATEADD(day, -2, SYSDATETIMEOFFSET()), DATEADD(day, -2, SYSDATETIMEOFFSET()),"
                    + " DATEADD(day, -2, SYSDATETIMEOFFSET()), DATEADD(day, -1, SYSDATETIMEOFFSET()))")) {
      insert.setString(1, TENANT);
      insert.setString(2, operation);
      insert.setString(3, key);
      insert.setString(4, HASH);
      assertThat(insert.executeUpdate()).isEqualTo(1);
    }
  }

  /** Holds the row's exclusive lock in {@code holder}'s open transaction, as a completion does. */
  private static void lockRow(Connection holder, String operation, String key) throws SQLException {
    try (PreparedStatement update =
        holder.prepareStatement(
            "UPDATE idempotency_record SET attempt = attempt WHERE tenant_id = ? AND operation = ?"
                + " AND idempotency_key = ?")) {
      update.setString(1, TENANT);
      update.setString(2, operation);
      update.setString(3, key);
      assertThat(update.executeUpdate()).isEqualTo(1);
    }
  }

  /**
   * Runs {@code call} on another thread; a call that waits for the lock held here would wait for
   * ever, so it is abandoned after a minute, which fails the test (no timing is measured).
   */
  private static <T> T withoutWaitingForLocks(Callable<T> call) throws Exception {
    ExecutorService thread = Executors.newSingleThreadExecutor();
    try {
      Future<T> result = thread.submit(call);
      try {
        return result.get(60, TimeUnit.SECONDS);
      } catch (java.util.concurrent.TimeoutException e) {
        result.cancel(true);
        throw new AssertionError("still waiting for a row lock after a minute", e);
      }
    } finally {
      thread.shutdownNow();
    }
  }
}
