package it.com.banhang.shop;

import static it.com.banhang.shop.ShopApi.createOrder;
import static it.com.banhang.shop.ShopApi.newKey;
import static it.com.banhang.shop.ShopApi.newSku;
import static it.com.banhang.shop.ShopApi.orderBody;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.util.Map;

/** Creating orders to pay, and paying them, as a client does. */
public final class Payments {

  public static final long PRICE = 625_000;
  public static final long TOTAL = 2 * PRICE;

  private Payments() {}

  /** A new order of {@link #TOTAL} VND for {@code user}; returns its id. */
  public static String newOrder(String user) {
    Response created = createOrder(user, newKey(), orderBody(newSku(), 2, PRICE));
    if (created.statusCode() != 201) {
      throw new IllegalStateException("could not create an order: " + created.asString());
    }
    return created.path("id");
  }

  /**
   * Waits until the shop's circuit breaker on the charge call lets payments through again
   * (docs/payments.md, "Fault Tolerance on the gateway calls"): a storm that ended in an incident
   * of lost answers may leave it open, for 10 s on the test servers. Pays new orders of {@code
   * user}, with the sandbox's faults off, until one is charged (201), at most 60 s; one success
   * closes the circuit and empties its window, so that a class that counts on the charge call being
   * made starts from a fresh circuit whatever ran before it.
   */
  public static void awaitChargesGoThrough(String user) {
    Sandbox.noFaults();
    org.awaitility.Awaitility.await("the circuit on the charge call closed")
        .atMost(java.time.Duration.ofSeconds(60))
        .pollInterval(java.time.Duration.ofSeconds(2))
        .until(() -> pay(user, newOrder(user), newKey(), "pm_card_ok").statusCode() == 201);
  }

  public static Response pay(String user, String orderId, String key, String paymentMethod) {
    return pay(ShopApi.as(user), orderId, key, TOTAL, paymentMethod);
  }

  public static Response pay(
      RequestSpecification as, String orderId, String key, long amount, String paymentMethod) {
    return as.contentType(ContentType.JSON)
        .header("Idempotency-Key", key)
        .body(
            "{\"amount\":"
                + amount
                + ",\"currency\":\"VND\",\"paymentMethod\":\""
                + paymentMethod
                + "\"}")
        .post("/api/v1/orders/" + orderId + "/payments");
  }

  /**
   * Runs reconciliation now and returns its report's counts per outcome, after checking that the
   * report is whole: every outcome counted, the counts adding up to the keys it examined. A run
   * looks at every payments.charge key in processing, so a test reads the counts of its own outcome
   * as a lower bound and checks its own key with {@link #keyState}.
   */
  public static Map<String, Integer> reconcileNowReport() {
    Response report = reconcileNow();
    assertThat(report.statusCode()).as(report.asString()).isEqualTo(200);
    Map<String, Integer> outcomes = report.path("outcomes");
    int examined = report.path("examined");
    assertThat(outcomes)
        .as("reconciliation report %s", report.asString())
        .containsKeys(
            "CAPTURED",
            "DECLINED",
            "RELEASED",
            "GATEWAY_UNREACHABLE",
            "STILL_RUNNING",
            "NEEDS_OPERATOR",
            "SETTLED_ELSEWHERE",
            "FAILED");
    assertThat(outcomes.values().stream().mapToInt(Integer::intValue).sum())
        .as("outcomes of %s add up to the keys examined", report.asString())
        .isEqualTo(examined);
    return outcomes;
  }

  /** A payments.charge key's row as "STATUS response_code", e.g. "COMPLETED 201". */
  public static String keyState(String tenant, String key) {
    String where =
        " FROM idempotency_record WHERE tenant_id = ? AND operation = ? AND idempotency_key = ?";
    return ShopDatabase.text("SELECT status" + where, tenant, "payments.charge", key)
        + " "
        + ShopDatabase.text("SELECT response_code" + where, tenant, "payments.charge", key);
  }

  /** Runs reconciliation now, as an operator does from the console. */
  public static Response reconcileNow() {
    return ShopApi.as("operator")
        .contentType(io.restassured.http.ContentType.JSON)
        .queryParam("minAge", "PT0S")
        .post("/api/v1/admin/reconciliations");
  }

  /** The late-charge sweep, now, over every abandoned attempt (docs/payments.md). */
  public static Response sweepLateChargesNow() {
    return ShopApi.as("operator")
        .contentType(io.restassured.http.ContentType.JSON)
        .post("/api/v1/admin/reconciliations/late-charges");
  }
}
