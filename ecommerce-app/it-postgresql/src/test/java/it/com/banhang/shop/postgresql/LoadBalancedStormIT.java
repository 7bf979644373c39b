package it.com.banhang.shop.postgresql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.banhang.storm.StormReport;
import com.banhang.storm.StormSettings;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import it.com.banhang.shop.BackgroundStorm;
import it.com.banhang.shop.Sandbox;
import it.com.banhang.shop.ShopApi;
import it.com.banhang.shop.ShopDatabase;
import it.com.banhang.shop.StormInvariants;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Three shop nodes behind a real load balancer (docs/scaling.md, "Behind a load balancer"): the
 * build's server ({@code a}) and two copies of it ({@code b}, {@code c}) on one PostgreSQL and one
 * gateway sandbox, with HAProxy in front, which checks each node's readiness and knows nothing of
 * idempotency. The storm's customers know only the balancer's address. While they retry, node
 * {@code c} is killed with SIGKILL while it holds a payment charged and not yet recorded, and node
 * {@code b} goes through a rolling restart as an operator does it: drained on the balancer's
 * runtime API, stopped, started, made ready again.
 *
 * <p>What must hold: the storm's invariants (no order charged twice, every captured answer charged
 * exactly once, nothing paid without a charge, nothing left processing), no key settled twice and
 * no payment key whose record contradicts its payment, as in TwoNodeStormIT, and every 5xx a
 * problem with Retry-After. And from the balancer's own log: the kill cut payments on {@code c};
 * every key {@code c} had a request of and did not answer finally itself got a final answer from
 * another node afterwards; no request was cut on {@code b}, which was drained before it stopped;
 * and {@code b} answers again after its restart.
 *
 * <p>{@value #DEFAULT_INTENTS} intents in the build: enough that the storm is still running when
 * the kill comes and the drain begins; bench/storm runs 1,000 ({@code -Dstorm.intents}).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LoadBalancedStormIT {

  private static final int DEFAULT_INTENTS = 160;
  private static final int INTENTS = Integer.getInteger("storm.intents", DEFAULT_INTENTS);

  /**
   * Requests node c has had when the aimed kill begins: 20 in the build, and an eighth of the
   * intents at larger sizes, so that the kill and the restart land in the storm's midst there too.
   */
  private static final int KILL_AFTER = Math.max(20, INTENTS / 8);

  /** Every gateway call charges, then answers 5 s later (as CrashStormIT's aimed kill). */
  private static final String SLOW_AFTER_CHARGE =
      "{\"slowProbability\":1,\"slowLatencyMs\":5000,\"latencyPhase\":\"AFTER_CHARGE\"}";

  private static final HttpClient HTTP =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  private static SecondShopNode nodeB;
  private static SecondShopNode nodeC;
  private static Balancer balancer;

  @BeforeAll
  static void startTwoMoreNodesAndTheBalancer() throws Exception {
    // Both copies start at the same time: a Liberty start-up is most of this class's time.
    ExecutorService starting = Executors.newFixedThreadPool(2);
    try {
      Future<SecondShopNode> b =
          starting.submit(
              () ->
                  SecondShopNode.start(
                      "lb-b",
                      Integer.getInteger("shop.lb.b.http.port", 9195),
                      Integer.getInteger("shop.lb.b.https.port", 9555)));
      Future<SecondShopNode> c =
          starting.submit(
              () ->
                  SecondShopNode.start(
                      "lb-c",
                      Integer.getInteger("shop.lb.c.http.port", 9196),
                      Integer.getInteger("shop.lb.c.https.port", 9556)));
      try {
        nodeB = b.get();
      } finally {
        nodeC = c.get();
      }
    } finally {
      starting.shutdown();
    }
    Map<String, String> nodes = new LinkedHashMap<>();
    nodes.put("a", ShopApi.URL);
    nodes.put("b", nodeB.url);
    nodes.put("c", nodeC.url);
    balancer =
        Balancer.start(
            Path.of(System.getProperty("shop.lb.dir", "target/load-balancer")),
            Integer.getInteger("shop.lb.port", 9380),
            nodes);
  }

  @AfterAll
  static void stopThem() throws Exception {
    try {
      if (balancer != null) {
        balancer.close();
      }
    } finally {
      try {
        if (nodeB != null) {
          nodeB.close();
        }
      } finally {
        if (nodeC != null) {
          nodeC.close();
        }
      }
    }
  }

  /**
   * The new-key limit is one for the cluster (docs/scaling.md, "The new-key limit of the cluster"):
   * the servers give erin {@value #ERIN_LIMIT} new keys per operation per hour ({@code
   * -Didempotency.new-keys.tenant.erin=4/PT1H}), and new keys sent to the three nodes in turn get
   * that many 201s in all, not that many on each node. Sent to each node directly rather than
   * through the balancer, so that each node is known to have had its share; first, while all three
   * run. No other test uses erin.
   */
  @Test
  @Order(1)
  void newKeysSentToThreeNodesInTurn_theLimitHoldsForAllTogether() {
    List<String> nodes = List.of(ShopApi.URL, nodeB.url, nodeC.url);
    List<Integer> statuses = new ArrayList<>();
    for (int i = 0; i < 3 * ERIN_LIMIT; i++) {
      Response created =
          ShopApi.as("erin")
              .baseUri(nodes.get(i % 3))
              .contentType(ContentType.JSON)
              .header("Idempotency-Key", ShopApi.newKey())
              .body(ShopApi.orderBody(ShopApi.newSku(), 1, 1))
              .post("/api/v1/orders");
      statuses.add(created.statusCode());
      if (created.statusCode() == 429) {
        assertThat((String) created.path("type")).endsWith("too-many-new-keys");
        assertThat(Long.parseLong(created.header("Retry-After"))).isBetween(1L, 3600L);
      }
    }

    assertThat(statuses)
        .as(
            "three nodes in turn, each with its own limit of %d, would answer 201 to all",
            ERIN_LIMIT)
        .containsExactly(201, 201, 201, 201, 429, 429, 429, 429, 429, 429, 429, 429);
  }

  private static final int ERIN_LIMIT = 4;

  @Test
  @Order(2)
  void stormThroughTheBalancer_oneNodeKilled_oneRestarted_retriesServedByTheOthers()
      throws Exception {
    long began = System.nanoTime();
    Timestamp started = databaseNow();
    StormSettings settings =
        StormSettings.defaults()
            .withNodes(List.of(balancer.url), Sandbox.URL)
            .withIntents(INTENTS, 8)
            .withSeed(29)
            .withTimes(Duration.ofMillis(1_500), Duration.ofSeconds(90), Duration.ofSeconds(150));

    boolean runningAtTheKill;
    boolean runningAtTheDrain;
    int lastLineBeforeTheRestart;
    StormReport report;
    try (BackgroundStorm storm =
        BackgroundStorm.start(settings, "claim-first, three nodes behind HAProxy")) {
      // The kill lands once node c has served a share of the storm, and it is aimed, as
      // CrashStormIT's: from then on every gateway call charges and answers 5 s later, and c is
      // killed as soon as it has kept a request waiting for 2 s, a payment charged and not yet
      // recorded, whose key c leaves processing under its lease.
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(20))
          .until(() -> balancer.requestsSent("c") >= KILL_AFTER || !storm.isRunning());
      Sandbox.faults(SLOW_AFTER_CHARGE);
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(50))
          .until(() -> balancer.holdsARequestFor2Seconds("c") || !storm.isRunning());
      runningAtTheKill = storm.isRunning();
      nodeC.kill();
      Sandbox.faults(settings.faults().json(settings.seed() + 1));
      long killed = System.nanoTime();
      await()
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(100))
          .until(() -> !balancer.isUp("c"));
      System.out.printf(
          "node c killed; the balancer took it out %d ms later%n",
          (System.nanoTime() - killed) / 1_000_000);

      // The rolling restart of b: no new request, the ones it holds finish, then stop and start.
      runningAtTheDrain = storm.isRunning();
      balancer.setState("b", "drain");
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(100))
          .until(() -> balancer.currentRequests("b") == 0);
      nodeB.stop();
      long stopped = System.nanoTime();
      nodeB.startAgain();
      List<Balancer.Logged> soFar = balancer.requests();
      lastLineBeforeTheRestart = soFar.isEmpty() ? -1 : soFar.get(soFar.size() - 1).line();
      balancer.setState("b", "ready");
      await()
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(100))
          .until(() -> balancer.isUp("b"));
      System.out.printf(
          "node b restarted: down %d ms, storm still running: %s%n",
          (System.nanoTime() - stopped) / 1_000_000, storm.isRunning());

      report = storm.reportWhileAnOperatorReconciles(Duration.ofMinutes(5));
    } finally {
      Sandbox.noFaults();
    }
    System.out.print(report.table());

    // The storm's invariants, as on one node and on two.
    assertThat(report.nodes()).as("the customers knew one address: the balancer's").isEqualTo(1);
    StormInvariants.assertHeld(report);
    StormInvariants.assertEvery5xxAProblemWithRetryAfter(report);
    assertThat(report.aKeySettledTwice()).as(report.table()).isFalse();
    assertThat(report.lateCharges().getOrDefault("DOUBLE_CHARGE", 0)).isZero();
    assertThat(TwoNodeStormIT.paymentKeysWhoseRecordContradictsTheirPayment(started))
        .as("a payments.charge key completed 201 without a captured attempt, or released with one")
        .isEmpty();

    // What the balancer saw.
    List<Balancer.Logged> requests = balancer.requests();
    Map<String, Long> byServer =
        requests.stream()
            .collect(Collectors.groupingBy(Balancer.Logged::server, Collectors.counting()));
    System.out.printf(
        "requests by node, as the balancer logged them: %s; sent to another node after a refused"
            + " connection: %d%n",
        byServer, requests.stream().filter(r -> r.retries().startsWith("+")).count());
    assertThat(runningAtTheKill).as("the kill landed while customers were retrying").isTrue();
    assertThat(runningAtTheDrain).as("the drain began while customers were retrying").isTrue();

    // The kill's keys: every key c had a request of, and did not answer finally itself. Each
    // must have had a final answer from another node after c's last request of it.
    List<Balancer.Logged> cut =
        requests.stream()
            .filter(r -> r.server().equals("c") && r.cutByTheServer() && !r.key().isEmpty())
            .toList();
    System.out.println("keyed requests the kill cut on c: " + cut);
    assertThat(cut)
        .as("the kill cut payments on c (else nothing below is shown)")
        .anyMatch(r -> r.request().contains("/payments"));
    Map<String, Integer> lastOnC = new TreeMap<>();
    requests.stream()
        .filter(r -> r.server().equals("c") && !r.key().isEmpty())
        .forEach(r -> lastOnC.put(r.key(), r.line()));
    requests.stream()
        .filter(r -> r.server().equals("c") && r.isFinal())
        .forEach(r -> lastOnC.remove(r.key()));
    Map<String, String> unserved = new TreeMap<>();
    lastOnC.forEach(
        (key, line) -> {
          boolean servedByAnother =
              requests.stream()
                  .anyMatch(
                      r ->
                          r.key().equals(key)
                              && r.line() > line
                              && !r.server().equals("c")
                              && r.isFinal());
          if (!servedByAnother) {
            unserved.put(
                key, requests.stream().filter(r -> r.key().equals(key)).toList().toString());
          }
        });
    System.out.printf(
        "keys c left without a final answer: %d, each answered by another node afterwards%n",
        lastOnC.size());
    assertThat(unserved)
        .as("keys the killed node c left unanswered, without a final answer from another node")
        .isEmpty();

    assertThat(requests.stream().filter(r -> r.server().equals("b") && r.cutByTheServer()).toList())
        .as("requests cut on b, which was drained before its orderly stop")
        .isEmpty();
    // b back in the rotation: of the next requests through the balancer, some are b's.
    for (int i = 0; i < 6; i++) {
      assertThat(getThroughTheBalancer("/health/ready")).isEqualTo(200);
    }
    assertThat(
            balancer.requests().stream()
                .filter(r -> r.line() > lastLineBeforeTheRestart && r.server().equals("b"))
                .count())
        .as("requests b answered after its restart")
        .isPositive();
    System.out.printf(
        "LoadBalancedStormIT's storm, kill and restart took %d s%n",
        (System.nanoTime() - began) / 1_000_000_000);
  }

  private static int getThroughTheBalancer(String path) throws Exception {
    return HTTP.send(
            HttpRequest.newBuilder(URI.create(balancer.url + path)).build(),
            HttpResponse.BodyHandlers.discarding())
        .statusCode();
  }

  private static Timestamp databaseNow() throws Exception {
    try (Connection connection = ShopDatabase.connect();
        PreparedStatement statement = connection.prepareStatement("SELECT now()");
        ResultSet rs = statement.executeQuery()) {
      rs.next();
      return rs.getTimestamp(1);
    }
  }
}
