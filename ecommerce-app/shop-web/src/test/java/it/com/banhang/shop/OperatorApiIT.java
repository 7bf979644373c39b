package it.com.banhang.shop;

import static io.restassured.RestAssured.given;
import static it.com.banhang.shop.Payments.newOrder;
import static it.com.banhang.shop.Payments.pay;
import static it.com.banhang.shop.ShopApi.newKey;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The operator's half of the mission over REST (docs/operations.md): a payment that reconciliation
 * cannot settle is found, resolved with a reason, audited, and the customer's retry with the same
 * key then ends with exactly one charge at the gateway.
 */
class OperatorApiIT {

  private static final String CHARGE = "payments.charge";
  private static final String PARKED_TENANT = "parked-by-test";
  private static final List<String> OPERATOR_POSTS =
      List.of(
          "/api/v1/admin/purges",
          "/api/v1/admin/payment-resolutions",
          "/api/v1/admin/reconciliations",
          "/api/v1/admin/reconciliations/late-charges");

  @AfterEach
  void normalGateway() {
    Sandbox.noFaults();
    ShopDatabase.update("DELETE FROM idempotency_record WHERE tenant_id = ?", PARKED_TENANT);
  }

  /**
   * A browser on another site can send an operator's cached Basic credentials with a "simple"
   * request: a form POST (form, text/plain or multipart body), or a bodiless fetch or beacon that
   * has no Content-Type at all. Every state-changing operator call refuses each (415), and changes
   * nothing.
   */
  @Test
  void operatorPosts_refuseSimpleCrossSiteRequests() throws Exception {
    long runsBefore = ShopDatabase.count("SELECT COUNT(*) FROM idempotency_purge_run");
    for (String contentType :
        java.util.Arrays.asList(
            "application/x-www-form-urlencoded",
            "text/plain",
            "multipart/form-data; boundary=x",
            null)) {
      for (String body : java.util.Arrays.asList("a=b", null)) {
        for (String path : OPERATOR_POSTS) {
          for (String guard : java.util.Arrays.asList("banhang-it", null)) {
            java.net.http.HttpResponse<String> refused = rawPost(path, contentType, body, guard);
            assertThat(refused.statusCode())
                .as(contentType + " " + body + " " + path + " " + guard)
                .isEqualTo(415);
            assertThat(refused.headers().firstValue("Content-Type").orElse(""))
                .startsWith("application/problem+json");
          }
        }
      }
    }
    assertThat(ShopDatabase.count("SELECT COUNT(*) FROM idempotency_purge_run"))
        .isEqualTo(runsBefore);
  }

  /**
   * A JSON call needs a CORS preflight only because of its Content-Type; the guard header makes
   * every state-changing operator call need one whatever the browser allows for JSON: without it,
   * 403 operator-header-required, nothing done and the key untouched.
   */
  @Test
  void operatorPosts_withoutTheGuardHeader_refused_nothingDone() throws Exception {
    long runsBefore = ShopDatabase.count("SELECT COUNT(*) FROM idempotency_purge_run");
    long auditBefore = ShopDatabase.count("SELECT COUNT(*) FROM operator_audit");
    for (String path : OPERATOR_POSTS) {
      for (String guard : java.util.Arrays.asList(null, "", "  ")) {
        java.net.http.HttpResponse<String> refused =
            rawPost(
                path,
                "application/json",
                "{\"tenant\":\"alice\",\"key\":\"k\",\"outcome\":\"not-charged\"}",
                guard);
        assertThat(refused.statusCode()).as(path + " [" + guard + "]").isEqualTo(403);
        assertThat(refused.headers().firstValue("Content-Type").orElse(""))
            .startsWith("application/problem+json");
        assertThat(refused.body()).contains("operator-header-required");
      }
    }
    assertThat(ShopDatabase.count("SELECT COUNT(*) FROM idempotency_purge_run"))
        .isEqualTo(runsBefore);
    assertThat(ShopDatabase.count("SELECT COUNT(*) FROM operator_audit")).isEqualTo(auditBefore);
    // With the header the same JSON call is let through (and purges).
    assertThat(rawPost("/api/v1/admin/purges", "application/json", "{}", "x").statusCode())
        .isEqualTo(200);
  }

  @Test
  void unknownPaymentBeyondGatewayRetention_resolvedAsNotCharged_customerRetryChargesOnce() {
    String orderId = newOrder("alice");
    String key = stuckBeyondGatewayRetention("alice", orderId);

    // Without a reason: refused, nothing changed, and the refusal is audited.
    Response noReason = resolve("alice", key, "not-charged", null, "", false);
    assertThat(noReason.statusCode()).isEqualTo(422);
    assertThat(noReason.contentType()).startsWith("application/problem+json");
    assertThat((String) noReason.path("type")).endsWith("#operator-action-refused");
    assertThat(ShopDatabase.heldKeys("alice", CHARGE, key)).isEqualTo(1);

    Response resolved =
        resolve("alice", key, "not-charged", null, "gateway dashboard shows no charge", false);
    assertThat(resolved.statusCode()).isEqualTo(200);
    assertThat((String) resolved.path("status")).isEqualTo("DONE");
    assertThat(ShopDatabase.heldKeys("alice", CHARGE, key)).isZero();

    // The customer's retry with the same key runs anew and pays once.
    Response retry = pay("alice", orderId, key, "pm_card_ok");
    assertThat(retry.statusCode()).isEqualTo(201);
    assertThat(retry.header("Idempotent-Replayed")).isNull();
    assertThat(Sandbox.charges(orderId)).isEqualTo(1);

    List<Map<String, Object>> audit = auditOf(key);
    assertThat(audit)
        .extracting(e -> e.get("action"))
        .containsExactly("RESOLVE_AS_NOT_CHARGED", "RESOLVE_AS_NOT_CHARGED");
    assertThat(audit).extracting(e -> e.get("result")).containsExactly("DONE", "REFUSED");
    assertThat(audit).allSatisfy(e -> assertThat(e.get("operator")).isEqualTo("operator"));
    assertThat(audit.get(0).get("reason")).isEqualTo("gateway dashboard shows no charge");
  }

  @Test
  void resolveAsCharged_mismatchingChargeRefused_unknownChargeNeedsOverride_thenOrderPaid() {
    String orderId = newOrder("bob");
    String key = stuckBeyondGatewayRetention("bob", orderId);
    String oneUnitCharge = chargeAtTheGatewayDirectly(orderId, 1);

    Response mismatch = resolve("bob", key, "charged", oneUnitCharge, "customer says paid", false);
    assertThat(mismatch.statusCode()).isEqualTo(422);
    assertThat((String) mismatch.path("detail")).contains("amount");
    assertThat(ShopDatabase.heldKeys("bob", CHARGE, key)).isEqualTo(1);
    assertThat(processing("bob", key)).isTrue();

    String forgotten = "ch_forgotten_" + newKey();
    Response needsConfirmation = resolve("bob", key, "charged", forgotten, "bank statement", false);
    assertThat(needsConfirmation.statusCode()).isEqualTo(409);
    assertThat((String) needsConfirmation.path("type")).endsWith("#override-confirmation-needed");
    assertThat(processing("bob", key)).isTrue();

    // The override is only proposed: nothing changes until a different operator approves it.
    Response proposed = resolve("bob", key, "charged", forgotten, "bank statement", true);
    assertThat(proposed.statusCode()).as(proposed.asString()).isEqualTo(202);
    assertThat((String) proposed.path("status")).isEqualTo("PROPOSED");
    long proposal = ((Number) proposed.path("proposalId")).longValue();
    assertThat(processing("bob", key)).isTrue();
    assertThat(
            ShopApi.as("operator")
                .get("/api/v1/admin/override-proposals")
                .<List<Integer>>path("items.id"))
        .contains((int) proposal);

    Response ownApproval = approve("operator", proposal);
    assertThat(ownApproval.statusCode()).isEqualTo(422);
    assertThat((String) ownApproval.path("type")).endsWith("#operator-action-refused");
    assertThat(processing("bob", key)).isTrue();

    Response approved = approve("operator2", proposal);
    assertThat(approved.statusCode()).as(approved.asString()).isEqualTo(200);
    assertThat(processing("bob", key)).isFalse();
    assertThat(approve("operator2", proposal).statusCode()).as("approved once").isEqualTo(422);
    assertThat(approve("operator2", 987_654_321L).statusCode()).isEqualTo(404);

    // The customer's retry is answered with the payment the operator recorded, not charged again.
    Response retry = pay("bob", orderId, key, "pm_card_ok");
    assertThat(retry.statusCode()).isEqualTo(201);
    assertThat(retry.header("Idempotent-Replayed")).isEqualTo("true");
    assertThat((String) retry.path("status")).isEqualTo("CAPTURED");
    assertThat(ShopApi.as("bob").get("/api/v1/orders/" + orderId).<String>path("status"))
        .isEqualTo("PAID");

    assertThat(auditOf(key))
        .extracting(e -> e.get("operator") + "/" + e.get("action") + "/" + e.get("result"))
        .containsExactly(
            "operator2/APPROVE_OVERRIDE/REFUSED",
            "operator2/APPROVE_OVERRIDE/DONE",
            "operator/APPROVE_OVERRIDE/REFUSED",
            "operator/PROPOSE_OVERRIDE/PROPOSED",
            "operator/RESOLVE_AS_CHARGED/CONFIRMATION_NEEDED",
            "operator/RESOLVE_AS_CHARGED/REFUSED");
  }

  @Test
  void stuckOperations_listedWithTheirPaymentAndLastCheck_keyLookupMasksMoney() {
    String orderId = newOrder("alice");
    String key = stuckBeyondGatewayRetention("alice", orderId);

    Response listed =
        ShopApi.as("operator")
            .queryParam("tenant", "alice")
            .queryParam("operation", CHARGE)
            .queryParam("lastCheck", "NEEDS_OPERATOR")
            .queryParam("limit", 500)
            .get("/api/v1/admin/stuck-operations");
    assertThat(listed.statusCode()).isEqualTo(200);
    List<String> keys = listed.path("items.ref.key");
    assertThat(keys).contains(key);

    Response detail =
        ShopApi.as("operator").get("/api/v1/admin/stuck-operations/alice/" + CHARGE + "/" + key);
    assertThat(detail.statusCode()).isEqualTo(200);
    assertThat((String) detail.path("payment.orderId")).isEqualTo(orderId);
    assertThat((String) detail.path("payment.status")).isEqualTo("PENDING");
    assertThat((String) detail.path("payment.gatewayKey")).startsWith("banhang_");
    assertThat((String) detail.path("operation.lastCheck")).isEqualTo("NEEDS_OPERATOR");

    // A completed key: its stored body is shown with the money masked.
    String orderKey = newKey();
    ShopApi.createOrder("alice", orderKey, ShopApi.orderBody(ShopApi.newSku(), 2, 625_000))
        .then()
        .statusCode(201);
    Response lookedUp =
        ShopApi.as("operator").get("/api/v1/admin/keys/alice/orders.create/" + orderKey);
    assertThat(lookedUp.statusCode()).isEqualTo(200);
    assertThat((String) lookedUp.path("status")).isEqualTo("COMPLETED");
    assertThat((Integer) lookedUp.path("responseStatus")).isEqualTo(201);
    String body = lookedUp.path("maskedBody");
    assertThat(body).contains("\"total\": \"***\"").doesNotContain("1250000");

    assertThat(
            ShopApi.as("operator").get("/api/v1/admin/keys/alice/orders.create/nope").statusCode())
        .isEqualTo(404);
  }

  @Test
  void parkedKeysBeyondOneBatch_doNotStarveReconciliationOfTheOthers() {
    // More keys left for an operator than one reconciliation batch (100), all older than the rest.
    OffsetDateTime longAgo = OffsetDateTime.now(ZoneOffset.UTC).minusDays(3);
    for (int i = 0; i < 120; i++) {
      ShopDatabase.update(
          "INSERT INTO idempotency_record (tenant_id, operation, idempotency_key, request_hash,"
              + " status, outcome, attempt, locked_until, created_at, expires_at, last_check)"
              + " VALUES (?, ?, ?, ?, 'PROCESSING', 'UNKNOWN', 1, ?, ?, ?, 'NEEDS_OPERATOR')",
          PARKED_TENANT,
          CHARGE,
          "parked-" + i,
          "0".repeat(64),
          longAgo,
          longAgo,
          longAgo.plusDays(7));
    }
    String orderId = newOrder("alice");
    String key = newKey();
    Sandbox.faults(
        "{\"dropResponseProbability\":1,\"faultsOnReplays\":true,\"dropMode\":\"GATEWAY_TIMEOUT\"}");
    assertThat(pay("alice", orderId, key, "pm_card_ok").statusCode()).isEqualTo(504);
    Sandbox.noFaults();

    Map<String, Integer> report = Payments.reconcileNowReport();
    // The parked keys are not in the run at all (each would count as NEEDS_OPERATOR again), and
    // the younger key behind them is reached and captured.
    assertThat(report.get("NEEDS_OPERATOR")).as("parked keys examined again").isZero();
    assertThat(report.get("CAPTURED")).as("keys the run captured").isGreaterThanOrEqualTo(1);
    assertThat(Payments.keyState("alice", key)).isEqualTo("COMPLETED 201");

    Response retry = pay("alice", orderId, key, "pm_card_ok");
    assertThat(retry.statusCode()).isEqualTo(201);
    assertThat((String) retry.path("status")).isEqualTo("CAPTURED");
    assertThat(Sandbox.charges(orderId)).isEqualTo(1);
    assertThat(
            ShopDatabase.count(
                "SELECT COUNT(*) FROM idempotency_record WHERE tenant_id = ?"
                    + " AND status = 'PROCESSING' AND last_check = 'NEEDS_OPERATOR'",
                PARKED_TENANT))
        .isEqualTo(120);
  }

  @Test
  void purgeNow_deletesExpiredKeys_recordsTheRun_andAuditsIt() {
    OffsetDateTime longAgo = OffsetDateTime.now(ZoneOffset.UTC).minusDays(30);
    String expired = "expired-" + newKey();
    ShopDatabase.update(
        "INSERT INTO idempotency_record (tenant_id, operation, idempotency_key, request_hash,"
            + " status, attempt, locked_until, created_at, completed_at, expires_at)"
            + " VALUES (?, 'orders.create', ?, ?, 'COMPLETED', 1, ?, ?, ?, ?)",
        PARKED_TENANT,
        expired,
        "0".repeat(64),
        longAgo,
        longAgo,
        longAgo,
        longAgo.plusDays(1));
    long runsBefore =
        ShopDatabase.count(
            "SELECT COUNT(*) FROM idempotency_purge_run WHERE started_by = 'operator'");

    Response purged = ShopApi.purgeNow();

    assertThat(purged.statusCode()).isEqualTo(200);
    assertThat((String) purged.path("message")).startsWith("purged ");
    assertThat(
            ShopDatabase.count(
                "SELECT COUNT(*) FROM idempotency_record WHERE idempotency_key = ?", expired))
        .isZero();
    assertThat(
            ShopDatabase.count(
                "SELECT COUNT(*) FROM idempotency_purge_run WHERE started_by = 'operator'"))
        .isEqualTo(runsBefore + 1);
    assertThat(
            ShopApi.as("operator")
                .queryParam("q", "PURGE")
                .get("/api/v1/admin/audit")
                .<List<String>>path("items.action"))
        .contains("PURGE");
  }

  /**
   * Every operator action over REST is audited under the authenticated operator: reconciliation
   * runs, late-charge sweeps and reads of the late charges too (they show customers' charges).
   */
  @Test
  void reconciliationRunsSweepsAndLateChargeReads_areAuditedUnderTheOperator() {
    long runs = auditCount("RECONCILE_RUN", "operator2");
    long sweeps = auditCount("SWEEP_LATE_CHARGES", "operator2");
    long reads = auditCount("READ_LATE_CHARGES", "operator2");

    assertThat(
            ShopApi.as("operator2")
                .contentType(ContentType.JSON)
                .queryParam("minAge", "PT0S")
                .post("/api/v1/admin/reconciliations")
                .statusCode())
        .isEqualTo(200);
    assertThat(
            ShopApi.as("operator2")
                .contentType(ContentType.JSON)
                .post("/api/v1/admin/reconciliations/late-charges")
                .statusCode())
        .isEqualTo(200);
    assertThat(ShopApi.as("operator2").get("/api/v1/admin/late-charges").statusCode())
        .isEqualTo(200);

    assertThat(auditCount("RECONCILE_RUN", "operator2")).isEqualTo(runs + 1);
    assertThat(auditCount("SWEEP_LATE_CHARGES", "operator2")).isEqualTo(sweeps + 1);
    assertThat(auditCount("READ_LATE_CHARGES", "operator2")).isEqualTo(reads + 1);
    assertThat(
            ShopDatabase.count(
                "SELECT COUNT(*) FROM operator_audit WHERE action = 'RECONCILE_RUN'"
                    + " AND operator_name = 'operator2' AND reason = 'minAge PT0S'"))
        .isPositive();
  }

  /**
   * The audit search matches its text literally on every database: %, _, \\, ], the pattern's own
   * escape character (!) and, on SQL Server, [ (which opens a set of characters there) are no
   * wildcards. B is what each pattern would also match if they were.
   */
  @Test
  void auditSearch_findsExactlyTheEntriesThatContainTheTextLiterally() {
    String mark = " " + newKey().toLowerCase(java.util.Locale.ROOT);
    String a = "[ab]%_\\z" + mark;
    String b = "axy\\z" + mark;
    String c = "ab]" + mark;
    String d = "wow!" + mark;
    for (String reason : List.of(a, b, c, d)) {
      ShopDatabase.update(
          "INSERT INTO operator_audit (occurred_at, operator_name, action, reason, result)"
              + " VALUES (?, 'it-audit-search', 'SEARCH_TEST', ?, 'DONE')",
          OffsetDateTime.now(ZoneOffset.UTC),
          reason);
    }

    assertThat(auditReasons("[ab]%_\\z" + mark)).containsExactly(a);
    assertThat(auditReasons("%_\\z" + mark)).containsExactly(a);
    assertThat(auditReasons("_\\z" + mark)).containsExactly(a);
    assertThat(auditReasons("\\z" + mark)).containsExactlyInAnyOrder(a, b);
    assertThat(auditReasons("]" + mark)).containsExactly(c);
    assertThat(auditReasons("!" + mark)).containsExactly(d);
    assertThat(auditReasons(mark)).containsExactlyInAnyOrder(a, b, c, d);
  }

  @Test
  void audit_cannotBeChangedOrRemovedThroughTheApi_andCustomersCannotReadIt() {
    assertThat(
            ShopApi.as("operator")
                .contentType(ContentType.JSON)
                .body("{}")
                .put("/api/v1/admin/audit")
                .statusCode())
        .isEqualTo(405);
    assertThat(ShopApi.as("operator").delete("/api/v1/admin/audit").statusCode()).isEqualTo(405);
    assertThat(ShopApi.as("alice").get("/api/v1/admin/audit").statusCode()).isEqualTo(403);
    assertThat(ShopApi.as("alice").get("/api/v1/admin/stuck-operations").statusCode())
        .isEqualTo(403);
    assertThat(
            ShopApi.as("alice")
                .contentType(ContentType.JSON)
                .header("Idempotency-Key", newKey())
                .body("{\"tenant\":\"alice\",\"key\":\"k\",\"outcome\":\"not-charged\"}")
                .post("/api/v1/admin/payment-resolutions")
                .statusCode())
        .isEqualTo(403);
  }

  /**
   * A late charge the sweep flagged DOUBLE_CHARGE is listed for automation (docs/operations.md,
   * "Late charges"). The flag is written into the row with SQL, as the sweep on another node would
   * write it, behind this node's JPA cache (which holds the attempt since the payment): the listing
   * must show the database's row. A real double charge would take the sandbox's late charge and a
   * second payment of the order.
   */
  @Test
  void lateCharges_flaggedOnesAreListedForOperators_customersAreRefused() {
    assertThat(ShopApi.as("alice").get("/api/v1/admin/late-charges").statusCode()).isEqualTo(403);
    Response badLimit =
        ShopApi.as("operator").queryParam("limit", 0).get("/api/v1/admin/late-charges");
    assertThat(badLimit.statusCode()).isEqualTo(400);
    assertThat(badLimit.contentType()).startsWith("application/problem+json");

    String orderId = newOrder("alice");
    assertThat(pay("alice", orderId, newKey(), "pm_card_ok").statusCode()).isEqualTo(201);
    String chargeId = "ch_late_" + newKey();
    assertThat(
            ShopDatabase.update(
                "UPDATE payment SET late_charge = 'DOUBLE_CHARGE', late_charge_id = ?,"
                    + " late_charge_detail = 'charged twice', late_checked_at = CURRENT_TIMESTAMP"
                    + " WHERE order_id = ?",
                chargeId,
                orderId))
        .isEqualTo(1);
    try {
      Response listed = ShopApi.as("operator").get("/api/v1/admin/late-charges");
      assertThat(listed.statusCode()).isEqualTo(200);
      assertThat(listed.contentType()).startsWith("application/json");
      assertThat((Integer) listed.path("total")).isGreaterThanOrEqualTo(1);
      assertThat((Integer) listed.path("needingOperator")).isGreaterThanOrEqualTo(1);
      List<Map<String, Object>> items = listed.path("items");
      assertThat(items)
          .filteredOn(i -> orderId.equals(i.get("orderId")))
          .singleElement()
          .satisfies(
              i -> {
                assertThat(i.get("flag")).isEqualTo("DOUBLE_CHARGE");
                assertThat(i.get("gatewayChargeId")).isEqualTo(chargeId);
                assertThat(i.get("tenantId")).isEqualTo("alice");
                assertThat(i.get("detail")).isEqualTo("charged twice");
                assertThat(i.get("foundAt")).isNotNull();
              });
    } finally {
      ShopDatabase.update(
          "UPDATE payment SET late_charge = NULL, late_charge_id = NULL,"
              + " late_charge_detail = NULL, late_checked_at = NULL WHERE order_id = ?",
          orderId);
    }
  }

  @Test
  void audit_onPostgreSql_theDatabaseItselfRefusesUpdateAndDelete() {
    org.junit.jupiter.api.Assumptions.assumeTrue(
        "postgresql".equals(System.getProperty("shop.db")),
        "the append-only trigger exists on PostgreSQL and SQL Server; H2 has none");
    ShopApi.purgeNow();
    long entries = ShopDatabase.count("SELECT COUNT(*) FROM operator_audit");
    assertThat(entries).isPositive();

    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> ShopDatabase.update("UPDATE operator_audit SET reason = 'rewritten'"))
        .hasMessageContaining("append-only");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> ShopDatabase.update("DELETE FROM operator_audit"))
        .hasMessageContaining("append-only");
    assertThat(ShopDatabase.count("SELECT COUNT(*) FROM operator_audit")).isEqualTo(entries);
  }

  @Test
  void badOperatorInput_isAProblemAndChangesNothing() {
    long auditBefore = ShopDatabase.count("SELECT COUNT(*) FROM operator_audit");
    Response badOutcome =
        ShopApi.as("operator")
            .contentType(ContentType.JSON)
            .header("Idempotency-Key", newKey())
            .body("{\"tenant\":\"alice\",\"key\":\"k\",\"outcome\":\"maybe\",\"reason\":\"x\"}")
            .post("/api/v1/admin/payment-resolutions");
    Response badAge =
        ShopApi.as("operator")
            .queryParam("minAge", "two minutes")
            .get("/api/v1/admin/stuck-operations");
    Response badLimit =
        ShopApi.as("operator").queryParam("limit", 100_000).get("/api/v1/admin/audit");

    assertThat(List.of(badOutcome, badAge, badLimit))
        .allSatisfy(
            r -> {
              assertThat(r.statusCode()).isEqualTo(400);
              assertThat(r.contentType()).startsWith("application/problem+json");
            });
    assertThat(ShopDatabase.count("SELECT COUNT(*) FROM operator_audit")).isEqualTo(auditBefore);
  }

  // ------------------------------------------------------------------ helpers

  /**
   * An operator POST exactly as given: java.net.http sends these bodies and headers as they are
   * (rest-assured insists on encoding forms and adds a Content-Type).
   */
  private static java.net.http.HttpResponse<String> rawPost(
      String path, String contentType, String body, String guard) throws Exception {
    String credentials =
        java.util.Base64.getEncoder()
            .encodeToString("operator:operator-secret".getBytes(StandardCharsets.UTF_8));
    java.net.http.HttpRequest.Builder request =
        java.net.http.HttpRequest.newBuilder(java.net.URI.create(ShopApi.URL + path))
            .header("Authorization", "Basic " + credentials)
            .header("Idempotency-Key", newKey())
            .POST(
                body == null
                    ? java.net.http.HttpRequest.BodyPublishers.noBody()
                    : java.net.http.HttpRequest.BodyPublishers.ofString(body));
    if (contentType != null) {
      request.header("Content-Type", contentType);
    }
    if (guard != null) {
      request.header("X-Requested-By", guard);
    }
    return java.net.http.HttpClient.newHttpClient()
        .send(request.build(), java.net.http.HttpResponse.BodyHandlers.ofString());
  }

  /**
   * A payment whose request was lost before the processor (nothing charged), then made older than
   * the gateway keeps keys: reconciliation can no longer tell, so it leaves the key to an operator.
   */
  private static String stuckBeyondGatewayRetention(String user, String orderId) {
    String key = newKey();
    Sandbox.faults("{\"loseRequestProbability\":1,\"dropMode\":\"GATEWAY_TIMEOUT\"}");
    assertThat(pay(user, orderId, key, "pm_card_ok").statusCode()).isEqualTo(504);
    Sandbox.noFaults();
    ShopDatabase.age(user, CHARGE, key, Duration.ofDays(2));
    // The test server reconciles every 2 s; operators may also run it now.
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofSeconds(1))
        .until(
            () -> {
              Payments.reconcileNow();
              return "NEEDS_OPERATOR".equals(lastCheck(user, key));
            });
    assertThat(Sandbox.charges(orderId)).isZero();
    return key;
  }

  private static String lastCheck(String user, String key) {
    Response detail =
        ShopApi.as("operator")
            .get("/api/v1/admin/stuck-operations/" + user + "/" + CHARGE + "/" + key);
    return detail.statusCode() == 200 ? detail.path("operation.lastCheck") : null;
  }

  private static boolean processing(String user, String key) {
    return ShopDatabase.count(
            "SELECT COUNT(*) FROM idempotency_record WHERE tenant_id = ? AND operation = ?"
                + " AND idempotency_key = ? AND status = 'PROCESSING'",
            user,
            CHARGE,
            key)
        == 1;
  }

  private static Response resolve(
      String tenant, String key, String outcome, String chargeId, String reason, boolean override) {
    StringBuilder body =
        new StringBuilder("{\"tenant\":\"")
            .append(tenant)
            .append("\",\"key\":\"")
            .append(key)
            .append("\",\"outcome\":\"")
            .append(outcome)
            .append("\",\"override\":")
            .append(override);
    if (chargeId != null) {
      body.append(",\"chargeId\":\"").append(chargeId).append('"');
    }
    if (reason != null) {
      body.append(",\"reason\":\"").append(reason).append('"');
    }
    body.append('}');
    return ShopApi.as("operator")
        .contentType(ContentType.JSON)
        .header("Idempotency-Key", newKey())
        .body(body.toString())
        .post("/api/v1/admin/payment-resolutions");
  }

  private static long auditCount(String action, String operator) {
    return ShopDatabase.count(
        "SELECT COUNT(*) FROM operator_audit WHERE action = ? AND operator_name = ?",
        action,
        operator);
  }

  private static Response approve(String operator, long proposal) {
    return ShopApi.as(operator)
        .contentType(ContentType.JSON)
        .header("Idempotency-Key", newKey())
        .post("/api/v1/admin/override-proposals/" + proposal + "/approval");
  }

  /** A charge made at the gateway under another key, e.g. with the wrong amount. */
  private static String chargeAtTheGatewayDirectly(String orderId, long amount) {
    return given()
        .baseUri(Sandbox.URL)
        .contentType(ContentType.JSON)
        .header("Idempotency-Key", newKey())
        .body(
            "{\"amount\":"
                + amount
                + ",\"currency\":\"VND\",\"orderReference\":\""
                + orderId
                + "\",\"paymentMethod\":\"pm_card_ok\"}")
        .post("/v1/charges")
        .then()
        .statusCode(201)
        .extract()
        .path("id");
  }

  /** The reasons of the entries a search for {@code text} lists (one page of up to 500). */
  private static List<String> auditReasons(String text) {
    return ShopApi.as("operator")
        .queryParam("q", text)
        .queryParam("limit", 500)
        .get("/api/v1/admin/audit")
        .then()
        .statusCode(200)
        .extract()
        .path("items.reason");
  }

  private static List<Map<String, Object>> auditOf(String key) {
    return ShopApi.as("operator")
        .queryParam("q", key)
        .get("/api/v1/admin/audit")
        .then()
        .statusCode(200)
        .extract()
        .path("items");
  }
}
