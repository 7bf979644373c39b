package it.com.banhang.shop;

import static io.restassured.RestAssured.given;
import static it.com.banhang.shop.ShopApi.createOrder;
import static it.com.banhang.shop.ShopApi.newKey;
import static it.com.banhang.shop.ShopApi.newSku;
import static it.com.banhang.shop.ShopApi.orderBody;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.restassured.response.Response;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * /metrics as an operator's dashboard reads it: the exact Prometheus series, read before and after
 * a scripted sequence of keyed requests, must move by exactly what the sequence did.
 */
class MetricsIT {

  private static final String CREATE = "orders.create";
  private static final String REQUESTS = "idempotency_requests_total";
  private static final String CLAIM_COUNT = "idempotency_claim_duration_seconds_count";

  private static final int NEW = 3;
  private static final int REPLAYS = 2;
  private static final int MISMATCHES = 2;
  private static final int INVALID_KEYS = 2;

  @Test
  void scriptedOrderRequests_moveEachOutcomeCounterByExactlyItsCount() {
    Metrics before = Metrics.read();
    List<String> processingKeys = new ArrayList<>();
    try {
      String firstKey = newKey();
      String firstBody = orderBody(newSku(), 1, 1_000);
      assertThat(createOrder("alice", firstKey, firstBody).statusCode()).isEqualTo(201);
      for (int i = 1; i < NEW; i++) {
        assertThat(createOrder("alice", newKey(), orderBody(newSku(), 1, 1_000)).statusCode())
            .isEqualTo(201);
      }
      for (int i = 0; i < REPLAYS; i++) {
        Response replay = createOrder("alice", firstKey, firstBody);
        assertThat(replay.statusCode()).isEqualTo(201);
        assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
      }
      // A key whose first attempt still runs: the shop's orders finish in milliseconds, so the
      // test puts a completed key back in processing, with a live lease, as a running attempt
      // looks in the table; the same request then finds it in use.
      String runningKey = newKey();
      String runningBody = orderBody(newSku(), 1, 1_000);
      assertThat(createOrder("alice", runningKey, runningBody).statusCode()).isEqualTo(201);
      backToProcessing(runningKey, Duration.ofHours(1), Duration.ofHours(1));
      processingKeys.add(runningKey);
      Response inUse = createOrder("alice", runningKey, runningBody);
      assertThat(inUse.statusCode()).isEqualTo(409);
      assertThat((String) inUse.path("type")).endsWith("#idempotency-key-in-use");
      for (int i = 0; i < MISMATCHES; i++) {
        Response reused = createOrder("alice", firstKey, orderBody(newSku(), 2, 1_000));
        assertThat(reused.statusCode()).isEqualTo(422);
      }
      for (int i = 0; i < INVALID_KEYS; i++) {
        Response invalid = createOrder("alice", "k".repeat(256), orderBody(newSku(), 1, 1_000));
        assertThat(invalid.statusCode()).isEqualTo(400);
      }

      Metrics after = Metrics.read();
      // The shop's own series as exported, for whoever reads the report of a failure.
      after
          .text
          .lines()
          .filter(l -> l.startsWith("idempotency_") || l.startsWith("payments_"))
          .filter(l -> !l.contains("_bucket{"))
          .forEach(System.out::println);
      Map<String, Double> expected = new HashMap<>();
      expected.put("claimed", (double) NEW + 1);
      expected.put("completed", (double) NEW + 1);
      expected.put("replayed", (double) REPLAYS);
      expected.put("in_progress", 1.0);
      expected.put("key_reused", (double) MISMATCHES);
      expected.put("rejected", (double) INVALID_KEYS);
      for (String outcome :
          List.of(
              "claimed",
              "completed",
              "replayed",
              "in_progress",
              "key_reused",
              "rejected",
              "released",
              "store_unavailable",
              "outcome_unknown",
              "rejection_stored",
              "marked_unknown")) {
        assertThat(
                after.value(REQUESTS, "operation", CREATE, "outcome", outcome)
                    - before.value(REQUESTS, "operation", CREATE, "outcome", outcome))
            .as("%s{operation=%s,outcome=%s} moved by", REQUESTS, CREATE, outcome)
            .isEqualTo(expected.getOrDefault(outcome, 0.0));
      }
      // One store decision per request that got past the key check: new, replays, the 409 and
      // the mismatches; the invalid keys never reach the store.
      double lookups = NEW + 1 + REPLAYS + 1 + MISMATCHES;
      assertThat(
              after.value(CLAIM_COUNT, "operation", CREATE)
                  - before.value(CLAIM_COUNT, "operation", CREATE))
          .as("claim timer count")
          .isEqualTo(lookups);
      assertThat(after.series("idempotency_claim_duration_seconds_bucket", "operation", CREATE))
          .as("the claim timer is a histogram with the configured buckets")
          .anySatisfy(labels -> assertThat(labels).containsEntry("le", "0.005"));
    } finally {
      processingKeys.forEach(MetricsIT::deleteKey);
    }
  }

  @Test
  void keysLeftInProcessing_showInTheGauges() {
    String running = newKey();
    String expired = newKey();
    try {
      assertThat(createOrder("alice", running, orderBody(newSku(), 1, 1)).statusCode())
          .isEqualTo(201);
      assertThat(createOrder("alice", expired, orderBody(newSku(), 1, 1)).statusCode())
          .isEqualTo(201);
      // One claimed two hours ago with a live lease, one whose lease ran out a minute ago.
      backToProcessing(running, Duration.ofHours(2), Duration.ofHours(1));
      backToProcessing(expired, Duration.ofMinutes(5), Duration.ofMinutes(-1));

      await()
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofSeconds(1))
          .untilAsserted(
              () -> {
                long processing =
                    ShopDatabase.count(
                        "SELECT COUNT(*) FROM idempotency_record"
                            + " WHERE operation = ? AND status = 'PROCESSING'",
                        CREATE);
                Metrics now = Metrics.read();
                assertThat(now.value("idempotency_processing_rows", "operation", CREATE))
                    .isEqualTo((double) processing)
                    .isGreaterThanOrEqualTo(2.0);
                assertThat(
                        now.value("idempotency_processing_oldest_age_seconds", "operation", CREATE))
                    .isGreaterThanOrEqualTo(2 * 3600.0);
                long expiredLeases =
                    ShopDatabase.count(
                        "SELECT COUNT(*) FROM idempotency_record WHERE operation = ?"
                            + " AND status = 'PROCESSING' AND locked_until < ?",
                        CREATE,
                        OffsetDateTime.now(ZoneOffset.UTC));
                assertThat(now.value("idempotency_leases_expired", "operation", CREATE))
                    .isEqualTo((double) expiredLeases)
                    .isGreaterThanOrEqualTo(1.0);
              });
    } finally {
      deleteKey(running);
      deleteKey(expired);
    }
    // Gone from the table, gone from the gauge (after the statistics' few seconds of caching).
    await()
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofSeconds(1))
        .untilAsserted(
            () ->
                assertThat(Metrics.read().value("idempotency_processing_rows", "operation", CREATE))
                    .isEqualTo(
                        (double)
                            ShopDatabase.count(
                                "SELECT COUNT(*) FROM idempotency_record"
                                    + " WHERE operation = ? AND status = 'PROCESSING'",
                                CREATE)));
  }

  @Test
  void paymentSeries_existFromTheStartAtTheirNames() {
    Metrics metrics = Metrics.read();
    for (String outcome :
        List.of(
            "captured",
            "declined",
            "released",
            "gateway_unreachable",
            "still_running",
            "needs_operator",
            "settled_elsewhere",
            "failed")) {
      assertThat(metrics.series("payments_reconciliation_outcomes_total", "outcome", outcome))
          .as("payments_reconciliation_outcomes_total{outcome=%s}", outcome)
          .hasSize(1);
    }
    for (String call : List.of("charge", "findByKey", "findCharge")) {
      assertThat(metrics.series("payments_gateway_errors_total", "call", call))
          .as("payments_gateway_errors_total{call=%s}", call)
          .hasSize(1);
    }
    for (String result :
        List.of(
            "refused",
            "received",
            "duplicate",
            "settled",
            "confirmed",
            "flagged",
            "parked",
            "waited",
            "failed")) {
      assertThat(metrics.series("payments_gateway_webhooks_total", "result", result))
          .as("payments_gateway_webhooks_total{result=%s}", result)
          .hasSize(1);
    }
    assertThat(metrics.series("idempotency_processing_rows", "operation", "payments.charge"))
        .hasSize(1);
  }

  @Test
  void anOperatorPurge_movesThePurgeRunCounterByExactlyOne_andTheRowCounterByTheRowsItDeleted() {
    // What else a purge reaches depends on the database: on PostgreSQL, a key that expired earlier
    // today stays in its day's partition until that day is dropped whole (docs/scaling.md,
    // "Retention by partition"), while H2 deletes it in batches. So one purge first takes whatever
    // is purgeable now, and the measured one then has this test's rows to count.
    assertThat(ShopApi.purgeNow().statusCode()).isEqualTo(200);
    // Two expired rows of a tenant no one else uses, so that the purge has rows to count.
    String tenant = "metrics-purge-" + newKey().substring(0, 8);
    OffsetDateTime longAgo = OffsetDateTime.now(ZoneOffset.UTC).minusDays(30);
    for (String status : List.of("COMPLETED", "RELEASED")) {
      update(
          "INSERT INTO idempotency_record (tenant_id, operation, idempotency_key, request_hash,"
              + " status, attempt, locked_until, created_at, completed_at, expires_at)"
              + " VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?, ?)",
          tenant,
          CREATE,
          "expired-" + status,
          "0".repeat(64),
          status,
          longAgo,
          longAgo,
          longAgo,
          longAgo.plusDays(1));
    }
    long purgeable = 2;
    Metrics before = Metrics.read();
    Response purge = ShopApi.purgeNow();
    assertThat(purge.statusCode()).as(purge.asString()).isEqualTo(200);

    Metrics after = Metrics.read();
    String runs = "idempotency_purge_runs_total";
    assertThat(
            after.value(runs, "started_by", "operator")
                - before.value(runs, "started_by", "operator"))
        .isEqualTo(1.0);
    assertThat(
            after.value(runs, "started_by", "schedule")
                - before.value(runs, "started_by", "schedule"))
        .isZero();
    assertThat(
            after.value("idempotency_purge_rows_total")
                - before.value("idempotency_purge_rows_total"))
        .as("rows the purge counted: this test's %s expired rows", purgeable)
        .isEqualTo((double) purgeable);
    assertThat(
            ShopDatabase.count(
                "SELECT COUNT(*) FROM idempotency_record WHERE tenant_id = ?", tenant))
        .isZero();
  }

  /**
   * Puts a completed orders.create key of alice back in processing, as a running or crashed attempt
   * leaves it: claimed {@code age} ago, its lease running for {@code lease} more (negative:
   * expired), no response.
   */
  private static void backToProcessing(String key, Duration age, Duration lease) {
    OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
    int changed =
        update(
            "UPDATE idempotency_record SET status = 'PROCESSING', created_at = ?,"
                + " locked_until = ?, completed_at = NULL, response_code = NULL,"
                + " response_headers = NULL, response_body = NULL"
                + " WHERE tenant_id = 'alice' AND operation = ? AND idempotency_key = ?",
            now.minus(age),
            now.plus(lease),
            CREATE,
            key);
    assertThat(changed).as("rows put back in processing").isEqualTo(1);
  }

  private static void deleteKey(String key) {
    update(
        "DELETE FROM idempotency_record"
            + " WHERE tenant_id = 'alice' AND operation = ? AND idempotency_key = ?",
        CREATE,
        key);
  }

  private static int update(String sql, Object... parameters) {
    return ShopDatabase.update(sql, parameters);
  }

  /** One scrape of /metrics (Prometheus text format), parsed into series. */
  static final class Metrics {

    private static final Pattern LINE =
        Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)\\})?\\s+(\\S+)(?:\\s+\\S+)?$");
    private static final Pattern LABEL =
        Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    private record Series(String name, Map<String, String> labels, double value) {}

    private final List<Series> all;
    final String text;

    private Metrics(List<Series> all, String text) {
      this.all = all;
      this.text = text;
    }

    static Metrics read() {
      Response response =
          given().baseUri(ShopApi.URL).accept("text/plain").get("/metrics?scope=application");
      assertThat(response.statusCode()).isEqualTo(200);
      return parse(response.asString());
    }

    static Metrics parse(String text) {
      List<Series> series = new ArrayList<>();
      for (String line : text.split("\n")) {
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        Matcher m = LINE.matcher(line.trim());
        if (!m.matches()) {
          continue;
        }
        Map<String, String> labels = new HashMap<>();
        if (m.group(2) != null) {
          Matcher l = LABEL.matcher(m.group(2));
          while (l.find()) {
            labels.put(l.group(1), l.group(2));
          }
        }
        series.add(new Series(m.group(1), labels, Double.parseDouble(m.group(3))));
      }
      return new Metrics(series, text);
    }

    /** Label sets of the series of {@code name} that carry every given label. */
    List<Map<String, String>> series(String name, String... labels) {
      return matching(name, labels).stream().map(Series::labels).toList();
    }

    /**
     * The value of the one series of {@code name} with these labels (a series not exported yet
     * counts as 0, as a counter not yet incremented).
     */
    double value(String name, String... labels) {
      List<Series> found =
          matching(name, labels).stream().filter(s -> !s.labels().containsKey("le")).toList();
      assertThat(found.size()).as("series %s %s in%n%s", name, List.of(labels), text).isLessThan(2);
      return found.isEmpty() ? 0.0 : found.get(0).value();
    }

    private List<Series> matching(String name, String... labels) {
      return all.stream()
          .filter(s -> s.name().equals(name))
          .filter(
              s -> {
                for (int i = 0; i + 1 < labels.length; i += 2) {
                  if (!labels[i + 1].equals(s.labels().get(labels[i]))) {
                    return false;
                  }
                }
                return true;
              })
          .toList();
    }
  }
}
