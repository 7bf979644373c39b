package it.com.banhang.shop.postgresql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.restassured.response.Response;
import it.com.banhang.shop.Payments;
import it.com.banhang.shop.Sandbox;
import it.com.banhang.shop.ShopApi;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * While the processor holds a payment's charge, the shop has no transaction open in PostgreSQL
 * (docs/payments.md, "payments.charge in three steps"): the PENDING attempt is committed before the
 * call and the answer recorded after it, each in a short transaction of its own, so a slow card
 * processor never holds a pooled connection idle in a transaction, nor its locks and snapshot.
 *
 * <p>The sandbox holds every charge for {@link #HOLD}. From the moment the attempt is committed
 * PENDING until the payment answers, a separate connection reads pg_stat_activity over and over; no
 * backend of the shop's login may be in a transaction open longer than {@link #LONGEST}, half the
 * hold: the short steps take milliseconds, while a transaction held across the call is open for the
 * whole hold. A connection of the test's own, left idle in a transaction as the shop's login, must
 * be seen by the same reading, so that the check cannot pass by seeing nothing.
 *
 * <p>PostgreSQL sees a transaction once it has run a statement: a JTA transaction begun around the
 * call that has not touched the database yet holds no connection, and is not seen here;
 * GatewayCallOutsideTransactionTest (the payments module) checks the code for that.
 */
class GatewayCallHoldsNoTransactionIT {

  private static final String URL = System.getProperty("shop.jdbc.url");
  private static final String USER = System.getProperty("shop.jdbc.user", "postgres");
  private static final String PASSWORD = System.getProperty("shop.jdbc.password", "postgres");
  private static final String RUNTIME_USER = System.getProperty("shop.runtime.user", "postgres");
  private static final String RUNTIME_PASSWORD =
      System.getProperty("shop.runtime.password", "postgres");

  /** How long the sandbox holds each charge: well inside the shop's 3 s read timeout. */
  private static final Duration HOLD = Duration.ofMillis(2_000);

  /** The longest a shop transaction may be open during the hold. */
  private static final Duration LONGEST = HOLD.dividedBy(2);

  /** The shop's backends in a transaction, with how long it has been open, by the database. */
  private static final String OPEN_TRANSACTIONS =
      "SELECT pid, state, EXTRACT(EPOCH FROM clock_timestamp() - xact_start) * 1000,"
          + " left(query, 200)"
          + " FROM pg_stat_activity"
          + " WHERE usename = ? AND xact_start IS NOT NULL AND pid <> pg_backend_pid()";

  @AfterEach
  void noFaults() {
    Sandbox.noFaults();
  }

  @Test
  void whileTheProcessorHoldsTheCharge_noShopTransactionIsOpenInPostgreSql() throws Exception {
    assertThat(RUNTIME_USER)
        .as("the shop's own login, told apart from the test's")
        .isNotEqualTo(USER);
    String orderId = Payments.newOrder("alice");
    Sandbox.faults("{\"latencyMs\":" + HOLD.toMillis() + ",\"latencyPhase\":\"AFTER_CHARGE\"}");

    ExecutorService customer = Executors.newSingleThreadExecutor();
    try (Connection probe = DriverManager.getConnection(URL, USER, PASSWORD);
        Connection idleInTransaction =
            DriverManager.getConnection(URL, RUNTIME_USER, RUNTIME_PASSWORD)) {
      int controlPid = openTransaction(idleInTransaction);

      // A real thread pays, as a customer would; this one watches the database meanwhile.
      Future<Response> paid =
          customer.submit(() -> Payments.pay("alice", orderId, ShopApi.newKey(), "pm_card_ok"));
      await()
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(10))
          .until(() -> "PENDING".equals(paymentStatus(probe, orderId)) || paid.isDone());
      long pending = System.nanoTime();
      assertThat(paid.isDone())
          .as("the payment answered before its hold could be watched")
          .isFalse();

      // Per backend, its latest sighting: the longest its transaction was seen open.
      Map<Integer, String> heldTooLong = new TreeMap<>();
      boolean controlSeen = false;
      Duration watchedWhileHeld = Duration.ZERO;
      while (!paid.isDone()) {
        Duration since = Duration.ofNanos(System.nanoTime() - pending);
        for (OpenTransaction open : openTransactions(probe)) {
          if (open.millis() <= LONGEST.toMillis()) {
            continue;
          }
          if (open.pid() == controlPid) {
            controlSeen = true;
          } else {
            heldTooLong.put(open.pid(), open + ", " + since.toMillis() + " ms into the hold");
          }
        }
        if (!paid.isDone()) {
          watchedWhileHeld = since;
        }
        Thread.sleep(20);
      }

      Response answer = paid.get(1, TimeUnit.MINUTES);
      assertThat(answer.statusCode()).as(answer.asString()).isEqualTo(201);
      assertThat(watchedWhileHeld)
          .as("how long the database was watched while the charge was held")
          .isGreaterThan(LONGEST);
      assertThat(controlSeen)
          .as(
              "the test's own connection, idle in a transaction as %s, seen by the same reading",
              RUNTIME_USER)
          .isTrue();
      assertThat(heldTooLong.values())
          .as(
              "shop transactions open longer than %d ms while the processor held the charge for %d"
                  + " ms: a transaction held across the gateway call",
              LONGEST.toMillis(), HOLD.toMillis())
          .isEmpty();
    } finally {
      customer.shutdownNow();
    }
  }

  /** A backend in a transaction, open for {@code millis} when read. */
  private record OpenTransaction(int pid, String state, double millis, String query) {
    @Override
    public String toString() {
      return String.format(
          "backend %d %s, its transaction open %.0f ms, last statement: %s",
          pid, state, millis, query);
    }
  }

  private static List<OpenTransaction> openTransactions(Connection probe) throws SQLException {
    try (PreparedStatement statement = probe.prepareStatement(OPEN_TRANSACTIONS)) {
      statement.setString(1, RUNTIME_USER);
      List<OpenTransaction> open = new ArrayList<>();
      try (ResultSet rs = statement.executeQuery()) {
        while (rs.next()) {
          open.add(
              new OpenTransaction(rs.getInt(1), rs.getString(2), rs.getDouble(3), rs.getString(4)));
        }
      }
      return open;
    }
  }

  /** Begins a transaction on {@code connection} and leaves it idle in it; returns its backend. */
  private static int openTransaction(Connection connection) throws SQLException {
    connection.setAutoCommit(false);
    try (Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery("SELECT pg_backend_pid()")) {
      rs.next();
      return rs.getInt(1);
    }
  }

  private static String paymentStatus(Connection probe, String orderId) throws SQLException {
    try (PreparedStatement statement =
        probe.prepareStatement("SELECT status FROM payment WHERE order_id = ?")) {
      statement.setString(1, orderId);
      try (ResultSet rs = statement.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    }
  }
}
