package it.com.banhang.shop;

import static it.com.banhang.shop.Payments.newOrder;
import static it.com.banhang.shop.Payments.pay;
import static it.com.banhang.shop.ShopApi.newKey;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.restassured.config.HttpClientConfig;
import io.restassured.config.RestAssuredConfig;
import io.restassured.response.Response;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The network misbehaving between the shop and the processor : whatever the gateway does, each
 * order is charged at most once and each client gets a truthful answer.
 */
@RunOnceOnH2
class GatewayFaultsIT {

  /**
   * Every test here counts on the charge call being made; the class before it (RetryStormIT's
   * incidents of lost answers, on H2's suite), or a test of this class before it (the lost answers
   * count as failures of the call), may have left the circuit open: a clean build's three tests
   * after such a one were answered 503 at once.
   */
  @BeforeEach
  void chargesGoThrough() {
    Payments.awaitChargesGoThrough("bob");
  }

  @AfterEach
  void noFaults() {
    Sandbox.noFaults();
  }

  /**
   * The lost requests and answers here count as failures of the charge call, and can leave its
   * circuit open for the class after this one (a clean build's ShopCrashIT met it): leave it
   * closed.
   */
  @AfterAll
  static void leaveTheCircuitClosed() {
    Payments.awaitChargesGoThrough("bob");
  }

  @Test
  void slowGateway_clientTimesOutAndRetries_gets409sThenTheReplay_oneCharge() throws Exception {
    String orderId = newOrder("alice");
    String key = newKey();
    // The processor answers after 2.5 s, the client gives up after 0.5 s and retries every 0.3 s:
    // at least one retry lands while the first request still runs, even on a loaded machine.
    Sandbox.faults("{\"latencyMs\":2500,\"latencyPhase\":\"AFTER_CHARGE\"}");
    RestAssuredConfig impatient =
        RestAssuredConfig.config()
            .httpClient(
                HttpClientConfig.httpClientConfig()
                    .setParam("http.socket.timeout", 500)
                    .setParam("http.connection.timeout", 500));

    List<String> seen = new ArrayList<>();
    Response last = null;
    for (int attempt = 0; attempt < 20 && last == null; attempt++) {
      try {
        Response response =
            pay(ShopApi.as("alice").config(impatient), orderId, key, Payments.TOTAL, "pm_card_ok");
        seen.add(String.valueOf(response.statusCode()));
        if (response.statusCode() == 201) {
          last = response;
        } else {
          assertThat(response.statusCode()).isEqualTo(409);
          assertThat(response.header("Retry-After")).isNotBlank();
        }
      } catch (Exception e) {
        assertThat(rootCause(e)).isInstanceOf(SocketTimeoutException.class);
        seen.add("timeout");
      }
      Thread.sleep(300);
    }

    System.out.println("slow gateway, impatient client saw: " + seen);
    assertThat(seen.get(0)).isEqualTo("timeout");
    assertThat(seen).contains("409");
    assertThat(last).isNotNull();
    assertThat(last.header("Idempotent-Replayed")).isEqualTo("true");
    assertThat(Sandbox.charges(orderId)).isEqualTo(1);
  }

  @Test
  void lostResponse_recoveredByTheShopsOwnRetryUnderTheSameGatewayKey() {
    String orderId = newOrder("alice");
    Sandbox.faults("{\"dropResponseProbability\":1,\"dropMode\":\"RESET\"}");

    Response paid = pay("alice", orderId, newKey(), "pm_card_ok");

    assertThat(paid.statusCode()).isEqualTo(201);
    assertThat(Sandbox.charges(orderId)).isEqualTo(1);
  }

  @Test
  void lostResponses_outcomeUnknown_thenReconciliationCompletesIt_oneCharge() {
    String orderId = newOrder("alice");
    String key = newKey();
    // Charged, then every answer for that key is lost, the shop's retries included.
    Sandbox.faults(
        "{\"dropResponseProbability\":1,\"faultsOnReplays\":true,\"dropMode\":\"GATEWAY_TIMEOUT\"}");

    Response first = pay("alice", orderId, key, "pm_card_ok");
    Response retry = pay("alice", orderId, key, "pm_card_ok");

    assertThat(first.statusCode()).isEqualTo(504);
    assertThat((String) first.path("type")).endsWith("#payment-outcome-unknown");
    assertThat(retry.statusCode()).isEqualTo(409);
    assertThat((String) retry.path("type")).endsWith("#payment-outcome-unknown");
    assertThat(retry.header("Retry-After")).isNotBlank();
    assertThat(Sandbox.charges(orderId)).isEqualTo(1);

    Sandbox.noFaults();
    assertThat(Payments.keyState("alice", key)).startsWith("PROCESSING ");
    Map<String, Integer> report = Payments.reconcileNowReport();
    assertThat(report.get("CAPTURED")).as("keys the run captured").isGreaterThanOrEqualTo(1);
    assertThat(Payments.keyState("alice", key)).isEqualTo("COMPLETED 201");

    Response afterReconciliation = pay("alice", orderId, key, "pm_card_ok");
    assertThat(afterReconciliation.statusCode()).isEqualTo(201);
    assertThat(afterReconciliation.header("Idempotent-Replayed")).isEqualTo("true");
    assertThat((String) afterReconciliation.path("status")).isEqualTo("CAPTURED");
    assertThat(Sandbox.charges(orderId)).isEqualTo(1);
  }

  @Test
  void lostRequests_outcomeUnknownWithoutCharge_reconciliationReleases_retryChargesOnce() {
    String orderId = newOrder("alice");
    String key = newKey();
    // Every request is lost on its way to the processor: the shop cannot tell, nothing is charged.
    Sandbox.faults("{\"loseRequestProbability\":1,\"dropMode\":\"GATEWAY_TIMEOUT\"}");

    Response first = pay("alice", orderId, key, "pm_card_ok");
    assertThat(first.statusCode()).isEqualTo(504);
    assertThat(Sandbox.charges(orderId)).isZero();

    Sandbox.noFaults();
    assertThat(Payments.keyState("alice", key)).startsWith("PROCESSING ");
    Map<String, Integer> report = Payments.reconcileNowReport();
    assertThat(report.get("RELEASED")).as("keys the run released").isGreaterThanOrEqualTo(1);
    assertThat(Payments.keyState("alice", key)).isEqualTo("RELEASED null");

    Response retry = pay("alice", orderId, key, "pm_card_ok");
    assertThat(retry.statusCode()).isEqualTo(201);
    assertThat(retry.header("Idempotent-Replayed")).isNull();
    assertThat(Sandbox.charges(orderId)).isEqualTo(1);
  }

  @Test
  void scheduledReconciliation_resolvesAnUnknownOutcomeWithoutAnOperator() {
    String orderId = newOrder("bob");
    String key = newKey();
    Sandbox.faults("{\"dropResponseProbability\":1,\"faultsOnReplays\":true}");
    assertThat(pay("bob", orderId, key, "pm_card_ok").statusCode()).isEqualTo(504);
    Sandbox.noFaults();

    // The test server runs reconciliation every 2 s for keys claimed more than 60 s ago. Rather
    // than wait out that minute, the key is made to look claimed two minutes ago: from then on it
    // is the schedule's to settle, and nobody runs reconciliation by hand.
    ShopDatabase.age("bob", "payments.charge", key, Duration.ofMinutes(2));
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofSeconds(1))
        .until(() -> pay("bob", orderId, key, "pm_card_ok").statusCode() == 201);
    assertThat(Sandbox.charges(orderId)).isEqualTo(1);
  }

  /**
   * The corner a stable gateway key cannot cover alone: the shop gave up, reconciliation found no
   * charge and released the key, and only then did the request reach the processor and charge. The
   * customer never retries. The late-charge sweep asks the gateway by the abandoned attempt's
   * gateway key, records the charge (payment captured, order paid), and a later retry of the key
   * answers with that payment. One charge throughout.
   */
  @Test
  void lateChargeAfterTheRelease_customerNeverRetries_theSweepRecordsIt_oneCharge() {
    String orderId = newOrder("alice");
    String key = newKey();
    // Each try waits 20 s before the processor charges: the shop's three tries (3 s read timeout
    // each) give up first, with the outcome unknown.
    Sandbox.faults("{\"latencyMs\":20000,\"latencyPhase\":\"BEFORE_CHARGE\"}");
    Response first = pay("alice", orderId, key, "pm_card_ok");
    assertThat(first.statusCode()).isEqualTo(504);
    Sandbox.noFaults();

    assertThat(Payments.reconcileNow().statusCode()).isEqualTo(200);
    assertThat(Sandbox.charges(orderId))
        .as("nothing charged yet when reconciliation asked")
        .isZero();
    assertThat(ShopDatabase.heldKeys("alice", "payments.charge", key))
        .as("reconciliation released the key")
        .isZero();

    // The request lands late at the processor.
    await().atMost(Duration.ofSeconds(60)).until(() -> Sandbox.charges(orderId) == 1);
    String before = ShopApi.as("alice").get("/api/v1/orders/" + orderId).path("status");
    assertThat(before)
        .as("nothing in the shop knows of the late charge")
        .isEqualTo("PENDING_PAYMENT");

    Response sweep = Payments.sweepLateChargesNow();
    assertThat(sweep.statusCode()).isEqualTo(200);
    assertThat((Integer) sweep.path("outcomes.RECORDED")).isGreaterThanOrEqualTo(1);

    String after = ShopApi.as("alice").get("/api/v1/orders/" + orderId).path("status");
    assertThat(after).isEqualTo("PAID");
    assertThat(
            ShopDatabase.text(
                "SELECT status FROM payment WHERE order_id = ? AND late_charge = 'RECORDED'",
                orderId))
        .isEqualTo("CAPTURED");
    assertThat(Sandbox.charges(orderId)).isEqualTo(1);

    // A retry long after still gets the payment, not "order already paid", and charges nothing.
    Response retry = pay("alice", orderId, key, "pm_card_ok");
    assertThat(retry.statusCode()).isEqualTo(201);
    assertThat((String) retry.path("status")).isEqualTo("CAPTURED");
    assertThat(Sandbox.charges(orderId)).isEqualTo(1);
  }

  private static Throwable rootCause(Throwable e) {
    Throwable cause = e;
    while (cause.getCause() != null) {
      cause = cause.getCause();
    }
    return cause;
  }
}
