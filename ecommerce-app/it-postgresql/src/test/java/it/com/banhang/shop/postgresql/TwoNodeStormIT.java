package it.com.banhang.shop.postgresql;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.banhang.storm.Storm;
import com.banhang.storm.StormReport;
import com.banhang.storm.StormSettings;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import it.com.banhang.shop.Payments;
import it.com.banhang.shop.Sandbox;
import it.com.banhang.shop.ShopApi;
import it.com.banhang.shop.ShopDatabase;
import it.com.banhang.shop.StormInvariants;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two shop servers on one PostgreSQL and one gateway sandbox (docs/scaling.md): the build's server
 * and a second one started here from the same installation, on ports of its own. The retry storm
 * sends half of the first tries to each node and every retry to the other one; both nodes run their
 * scheduled reconciliation all along, and the storm's settling runs reconciliation and the
 * late-charge sweep on both at the same moment. Then both nodes reconcile the same keys of unknown
 * outcome at once, and purge one backlog of expired keys at once.
 *
 * <p>What must hold: the storm's invariants (no order charged twice, every captured answer charged
 * exactly once, nothing paid without a charge, nothing left processing); no key settled twice by
 * the nodes' runs, and no key's record saying another result than its payment; every purged row
 * counted once over both nodes' runs. And events out, which both nodes relay at once: one
 * PaymentCaptured per captured payment at the webhook subscriber, and on Kafka, whose broker is
 * killed during the storm and started again 10 s later, every event of the storm's orders, each
 * order's in ascending sequence without a gap.
 */
class TwoNodeStormIT {

  private static final int INTENTS = Integer.getInteger("storm.intents", 200);
  private static final HttpClient HTTP =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  private static SecondShopNode nodeB;

  @BeforeAll
  static void startTheSecondNode() throws Exception {
    nodeB =
        SecondShopNode.start(
            Integer.getInteger("shop.second.http.port", 9190),
            Integer.getInteger("shop.second.https.port", 9553));
  }

  @AfterAll
  static void stopTheSecondNode() throws Exception {
    if (nodeB != null) {
      nodeB.close();
    }
  }

  @Test
  void stormOverTwoNodes_eachRetryOnTheOtherNode_noOrderChargedTwice_noKeySettledTwice()
      throws Exception {
    Timestamp started = databaseNow();
    StormSettings settings =
        StormSettings.defaults()
            .withNodes(List.of(ShopApi.URL, nodeB.url), Sandbox.URL)
            .withIntents(INTENTS, 8)
            .withSeed(21)
            .withTimes(Duration.ofMillis(1_500), Duration.ofSeconds(60), Duration.ofSeconds(150));

    // The suite's Kafka broker, which both nodes publish to, is killed (SIGKILL, a crash) while the
    // storm runs and started again 10 s later: its events wait in the outbox and must all arrive
    // afterwards, in order per order.
    KafkaBroker broker =
        KafkaBroker.attach(java.nio.file.Path.of(System.getProperty("shop.kafka.dir")));
    ExecutorService outage = Executors.newSingleThreadExecutor();
    Future<Long> brokerDown =
        outage.submit(
            () -> {
              Thread.sleep(5_000);
              broker.kill();
              long down = System.nanoTime();
              Thread.sleep(10_000);
              broker.restart();
              return (System.nanoTime() - down) / 1_000_000;
            });
    StormReport report;
    try {
      report = new Storm(settings).run("claim-first, two nodes on one PostgreSQL");
      System.out.printf("Kafka was down %d ms during the storm%n", brokerDown.get());
    } finally {
      outage.shutdownNow();
      if (!broker.isRunning()) {
        broker.restart(); // the rest of the suite publishes to it
      }
    }
    System.out.print(report.table());
    long stormEnded = System.nanoTime();

    assertThat(report.nodes()).isEqualTo(2);
    assertThat(report.requestsSent())
        .as("the faults made clients retry, on the other node")
        .isGreaterThan(2L * report.intents());
    StormInvariants.assertHeld(report);
    assertThat(report.aKeySettledTwice()).as(report.table()).isFalse();
    assertThat(report.lateCharges().getOrDefault("DOUBLE_CHARGE", 0)).isZero();
    assertThat(paymentKeysWhoseRecordContradictsTheirPayment(started))
        .as("a payments.charge key completed 201 without a captured attempt, or released with one")
        .isEmpty(); // Both nodes relay the outbox at once: still exactly one PaymentCaptured per
    // captured payment
    // at the subscriber, and none for any other.
    StormInvariants.assertOneCapturedEventPerCapturedPayment(started.toInstant());
    System.out.printf(
        "every event published and delivered %d ms after the storm's report%n",
        (System.nanoTime() - stormEnded) / 1_000_000);
    // And on Kafka, down for 10 s and its restart during the storm: every event of the storm's
    // orders, each
    // order's in one partition and in ascending sequence without a gap, whichever node relayed it.
    OrderStreams.Checked checked =
        OrderStreams.assertEveryEventOnTheTopicInOrder(
            broker, OrderStreams.ordersPlacedSince(started), Duration.ofSeconds(120));
    System.out.printf(
        "%d events of %d orders on Kafka after the outage, %d records sent twice; checked %d ms"
            + " after the storm's report%n",
        checked.events(),
        checked.orders(),
        checked.duplicates(),
        (System.nanoTime() - stormEnded) / 1_000_000);
    assertThat(checked.orders()).as("orders of the storm on Kafka").isGreaterThan(0);
  }

  @Test
  void bothNodesReconcileTheSameUnknownKeysAtOnce_eachKeySettledOnce_asTheGatewaySays()
      throws Exception {
    int each = 10;
    // Keys whose outcome is unknown to the shop: charged with every answer lost, and never
    // charged with every request lost. Paid half through each node.
    Sandbox.faults(
        "{\"dropResponseProbability\":1,\"faultsOnReplays\":true,\"dropMode\":\"GATEWAY_TIMEOUT\"}");
    Map<String, String> charged = unknownPayments(each);
    Sandbox.faults("{\"loseRequestProbability\":1,\"dropMode\":\"GATEWAY_TIMEOUT\"}");
    Map<String, String> neverCharged = unknownPayments(each);
    Sandbox.noFaults();
    for (String key : union(charged, neverCharged).keySet()) {
      assertThat(Payments.keyState("alice", key)).startsWith("PROCESSING ");
    }
    long processingBefore = processingPaymentKeys();

    // Two runs on each node, started together: all four read the same keys.
    ExecutorService operators = Executors.newFixedThreadPool(4);
    Map<String, Integer> findings = new TreeMap<>();
    try {
      List<Future<Map<String, Integer>>> runs = new ArrayList<>();
      for (String node : List.of(ShopApi.URL, nodeB.url, ShopApi.URL, nodeB.url)) {
        runs.add(operators.submit(() -> reconcileNow(node)));
      }
      for (Future<Map<String, Integer>> run : runs) {
        run.get().forEach((finding, n) -> findings.merge(finding, n, Integer::sum));
      }
    } finally {
      operators.shutdownNow();
    }
    System.out.println("four reconciliation runs on two nodes at once: " + findings);
    long settledMeanwhile = processingBefore - processingPaymentKeys();

    for (String key : charged.keySet()) {
      assertThat(Payments.keyState("alice", key)).as("charged " + key).isEqualTo("COMPLETED 201");
      assertThat(Sandbox.charges(charged.get(key))).isEqualTo(1);
    }
    for (String key : neverCharged.keySet()) {
      assertThat(Payments.keyState("alice", key)).as("lost " + key).isEqualTo("RELEASED null");
      assertThat(Sandbox.charges(neverCharged.get(key))).isZero();
    }
    int settlements =
        findings.get("CAPTURED") + findings.get("DECLINED") + findings.get("RELEASED");
    assertThat(settlements)
        .as("settlements the runs reported, against keys that left processing: %s", findings)
        .isLessThanOrEqualTo((int) settledMeanwhile)
        .isGreaterThanOrEqualTo(2 * each);
    assertThat(findings.get("CAPTURED")).as("%s", findings).isGreaterThanOrEqualTo(each);
  }

  /**
   * {@code count} orders of alice, each paid once under a new key while the sandbox's faults leave
   * the outcome unknown (504), alternately through each node; key to order.
   */
  private static Map<String, String> unknownPayments(int count) {
    Map<String, String> orderOfKey = new TreeMap<>();
    for (int i = 0; i < count; i++) {
      String orderId = Payments.newOrder("alice");
      String key = ShopApi.newKey();
      String node = i % 2 == 0 ? ShopApi.URL : nodeB.url;
      Response paid =
          Payments.pay(
              given().baseUri(node).auth().preemptive().basic("alice", "alice-secret"),
              orderId,
              key,
              Payments.TOTAL,
              "pm_card_ok");
      assertThat(paid.statusCode()).as(paid.asString()).isEqualTo(504);
      orderOfKey.put(key, orderId);
    }
    return orderOfKey;
  }

  private static Map<String, String> union(Map<String, String> a, Map<String, String> b) {
    Map<String, String> both = new TreeMap<>(a);
    both.putAll(b);
    return both;
  }

  /** payments.charge keys in processing, of any client. */
  private static long processingPaymentKeys() {
    return ShopDatabase.count(
        "SELECT COUNT(*) FROM idempotency_record"
            + " WHERE operation = 'payments.charge' AND status = 'PROCESSING'");
  }

  /**
   * One reconciliation run on {@code node} over every key in processing; its findings counted (the
   * JSON field outcomes).
   */
  private static Map<String, Integer> reconcileNow(String node) {
    Response run =
        given()
            .baseUri(node)
            .auth()
            .preemptive()
            .basic("operator", "operator-secret")
            .contentType(ContentType.JSON)
            .header("X-Requested-By", "banhang-it")
            .queryParam("minAge", "PT0S")
            .post("/api/v1/admin/reconciliations");
    assertThat(run.statusCode()).as(run.asString()).isEqualTo(200);
    return run.path("outcomes");
  }

  @Test
  void bothNodesPurgeOneBacklogAtOnce_everyRowDeletedAndCountedOnce() throws Exception {
    int backlog = 12_000;
    String tenant = "purge-race-" + UUID.randomUUID().toString().substring(0, 8);
    Timestamp started = databaseNow();
    long before = rows();
    insertExpiredBacklog(tenant, backlog);

    // Two purges on each node at the same moment, each under its own key, as operators or
    // automation on two nodes would start them.
    ExecutorService operators = Executors.newFixedThreadPool(4);
    List<Future<Integer>> purges = new ArrayList<>();
    try {
      for (String node : List.of(ShopApi.URL, nodeB.url, ShopApi.URL, nodeB.url)) {
        purges.add(operators.submit((Callable<Integer>) () -> purgeNow(node)));
      }
      for (Future<Integer> purge : purges) {
        assertThat(purge.get()).as("the purge's answer").isEqualTo(200);
      }
    } finally {
      operators.shutdownNow();
    }
    // A run may stop at a short batch while the other node's run deletes the rest; purge again
    // until the backlog is gone, as the schedule would.
    int purgeCalls = purges.size();
    for (int i = 0; i < 5 && backlogLeft(tenant) > 0; i++) {
      assertThat(purgeNow(i % 2 == 0 ? ShopApi.URL : nodeB.url)).isEqualTo(200);
      purgeCalls++;
    }
    assertThat(backlogLeft(tenant)).as("the backlog left").isZero();

    Map<String, Long> deletedByNode = deletedByNodeSince(started);
    System.out.println("rows deleted per node: " + deletedByNode);
    long deleted = deletedByNode.values().stream().mapToLong(Long::longValue).sum();
    // Every purge call is itself a keyed request: it adds one admin.purge row.
    long gone = before + backlog + purgeCalls - rows();
    assertThat(deleted).as("rows the runs say they deleted, against rows gone").isEqualTo(gone);
    assertThat(deletedByNode).as("runs of both nodes were recorded").hasSizeGreaterThanOrEqualTo(2);
  }

  /** {@code POST /api/v1/admin/purges} on {@code node}, as the operator, under a new key. */
  private static int purgeNow(String node) throws Exception {
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(node + "/api/v1/admin/purges"))
                .timeout(Duration.ofSeconds(120))
                .header("Content-Type", "application/json")
                .header("X-Requested-By", "banhang-it")
                .header("Idempotency-Key", UUID.randomUUID().toString())
                .header(
                    "Authorization",
                    "Basic "
                        + Base64.getEncoder().encodeToString("operator:operator-secret".getBytes()))
                .POST(HttpRequest.BodyPublishers.ofString("{}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    return response.statusCode();
  }

  /**
   * The storm's payment keys whose final record disagrees with their payments: completed with 201
   * while no attempt of that key is captured, or released while one is. Two nodes settling one key
   * differently would leave exactly that.
   */
  static List<String> paymentKeysWhoseRecordContradictsTheirPayment(Timestamp since)
      throws SQLException {
    String captured =
        "EXISTS (SELECT 1 FROM payment p WHERE p.tenant_id = r.tenant_id"
            + " AND p.idempotency_key = r.idempotency_key AND p.status = 'CAPTURED')";
    List<String> keys = new ArrayList<>();
    try (Connection connection = ShopDatabase.connect();
        PreparedStatement statement =
            connection.prepareStatement(
                "SELECT r.idempotency_key, r.status, r.response_code FROM idempotency_record r"
                    + " WHERE r.operation = 'payments.charge' AND r.created_at >= ?"
                    + " AND ((r.status = 'COMPLETED' AND r.response_code = 201 AND NOT "
                    + captured
                    + ") OR (r.status = 'RELEASED' AND "
                    + captured
                    + "))")) {
      statement.setTimestamp(1, since);
      try (ResultSet rs = statement.executeQuery()) {
        while (rs.next()) {
          keys.add(rs.getString(1) + " " + rs.getString(2) + " " + rs.getInt(3));
        }
      }
    }
    return keys;
  }

  private static void insertExpiredBacklog(String tenant, int rows) throws SQLException {
    try (Connection connection = ShopDatabase.connect();
        PreparedStatement insert =
            connection.prepareStatement(
                "INSERT INTO idempotency_record (tenant_id, operation, idempotency_key,"
                    + " request_hash, status, attempt, locked_until, created_at, completed_at,"
                    + " expires_at, response_code)"
                    + " SELECT ?, 'test.purge-race', 'k-' || n, 'h', 'COMPLETED', 1,"
                    + " now() - interval '2 days', now() - interval '2 days',"
                    + " now() - interval '2 days', now() - interval '1 day', 200"
                    + " FROM generate_series(1, ?) AS n")) {
      insert.setString(1, tenant);
      insert.setInt(2, rows);
      assertThat(insert.executeUpdate()).isEqualTo(rows);
    }
  }

  private static long backlogLeft(String tenant) {
    return ShopDatabase.count(
        "SELECT COUNT(*) FROM idempotency_record WHERE tenant_id = ?", tenant);
  }

  private static long rows() {
    return ShopDatabase.count("SELECT COUNT(*) FROM idempotency_record");
  }

  private static Map<String, Long> deletedByNodeSince(Timestamp since) throws SQLException {
    Map<String, Long> byNode = new TreeMap<>();
    try (Connection connection = ShopDatabase.connect();
        PreparedStatement statement =
            connection.prepareStatement(
                "SELECT node, SUM(rows_deleted) FROM idempotency_purge_run"
                    + " WHERE started_at >= ? GROUP BY node")) {
      statement.setTimestamp(1, since);
      try (ResultSet rs = statement.executeQuery()) {
        while (rs.next()) {
          byNode.put(rs.getString(1), rs.getLong(2));
        }
      }
    }
    return byNode;
  }

  private static Timestamp databaseNow() throws SQLException {
    try (Connection connection = ShopDatabase.connect();
        PreparedStatement statement = connection.prepareStatement("SELECT now()");
        ResultSet rs = statement.executeQuery()) {
      rs.next();
      return rs.getTimestamp(1);
    }
  }
}
