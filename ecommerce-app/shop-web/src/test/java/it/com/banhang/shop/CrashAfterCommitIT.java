package it.com.banhang.shop;

import static it.com.banhang.shop.Payments.TOTAL;
import static it.com.banhang.shop.Payments.newOrder;
import static it.com.banhang.shop.Payments.pay;
import static it.com.banhang.shop.ShopApi.createOrder;
import static it.com.banhang.shop.ShopApi.newKey;
import static it.com.banhang.shop.ShopApi.newSku;
import static it.com.banhang.shop.ShopApi.orderBody;
import static org.assertj.core.api.Assertions.fail;
import static org.assertj.core.api.SoftAssertions.assertSoftly;

import io.restassured.response.Response;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/**
 * An aimed crash between the commit and the answer. The shop's JVM halts after a keyed request's
 * business rows and completed Idempotency-Key were committed and before a byte of the answer was
 * written (the it-faults WAR's HaltAfterCommit, set off by the {@value #FAULT_HEADER} header; the
 * shipped WAR has no such hook). The client gets no answer; after a restart, its retry with the
 * same key and body must get the answer that was committed, as a replay, and nothing may have run
 * twice: one order, one payment, one charge at the gateway.
 *
 * <p>The random kills of the storms may land in this window; this test lands there every time. On
 * every database: the answer comes from the database's files after a crash.
 */
class CrashAfterCommitIT {

  /** The header and value that HaltAfterCommit, in the WAR the test servers deploy, acts on. */
  static final String FAULT_HEADER = "X-Test-Fault";

  static final String HALT_AFTER_COMMIT = "halt-after-commit";

  @Test
  void orderCreate_haltedAfterItsCommitBeforeItsAnswer_retryReplaysTheCommittedOrder()
      throws Exception {
    String sku = newSku();
    String key = newKey();
    String body = orderBody(sku, 1, 1_000);

    long pid = ShopServer.pid();
    postExpectingNoAnswer("/api/v1/orders", key, body);
    ShopServer.awaitExit(pid);
    ShopServer.start();

    // What the database kept, read before any retry: the crash came after the commit, so the order
    // and its completed key are there although nobody was told.
    String keyBeforeRetry = keyState("orders.create", key);
    long ordersBeforeRetry = ShopDatabase.ordersWithSku(sku);
    String committedOrderId =
        ShopDatabase.text("SELECT order_id FROM order_line WHERE sku = ?", sku);

    Response retry = createOrder("alice", key, body);

    assertSoftly(
        soft -> {
          soft.assertThat(keyBeforeRetry)
              .as("the key after the restart")
              .isEqualTo("COMPLETED 201");
          soft.assertThat(ordersBeforeRetry).as("orders after the restart").isEqualTo(1);
          soft.assertThat(retry.statusCode()).as("retry: %s", retry.asString()).isEqualTo(201);
          soft.assertThat(retry.header("Idempotent-Replayed"))
              .as("the retry is a replay")
              .isEqualTo("true");
          soft.assertThat((String) retry.path("id"))
              .as("the retry's order is the committed one")
              .isEqualTo(committedOrderId);
          soft.assertThat(retry.header("Location")).endsWith("/api/v1/orders/" + committedOrderId);
          soft.assertThat(ShopDatabase.ordersWithSku(sku))
              .as("orders after the retry")
              .isEqualTo(1);
          soft.assertThat(ShopDatabase.rows("alice", "orders.create", key))
              .as("rows of the key")
              .isEqualTo(1);
          soft.assertThat(keyState("orders.create", key)).isEqualTo("COMPLETED 201");
        });
  }

  @Test
  void payment_haltedAfterItsCommitBeforeItsAnswer_retryReplaysTheCommittedPayment_chargedOnce()
      throws Exception {
    String orderId = newOrder("alice");
    String key = newKey();
    String body =
        "{\"amount\":" + TOTAL + ",\"currency\":\"VND\",\"paymentMethod\":\"pm_card_ok\"}";

    long pid = ShopServer.pid();
    postExpectingNoAnswer("/api/v1/orders/" + orderId + "/payments", key, body);
    ShopServer.awaitExit(pid);
    ShopServer.start();

    String keyBeforeRetry = keyState("payments.charge", key);
    long paymentsBeforeRetry = paymentsOfKey(key);
    String committedPaymentId =
        ShopDatabase.text(
            "SELECT id FROM payment WHERE tenant_id = 'alice' AND idempotency_key = ?", key);
    String paymentStatus =
        ShopDatabase.text("SELECT status FROM payment WHERE id = ?", committedPaymentId);
    long chargesBeforeRetry = Sandbox.charges(orderId);

    Response retry = pay("alice", orderId, key, "pm_card_ok");

    assertSoftly(
        soft -> {
          soft.assertThat(keyBeforeRetry)
              .as("the key after the restart")
              .isEqualTo("COMPLETED 201");
          soft.assertThat(paymentsBeforeRetry).as("payments after the restart").isEqualTo(1);
          soft.assertThat(paymentStatus).as("the payment after the restart").isEqualTo("CAPTURED");
          soft.assertThat(chargesBeforeRetry).as("charges before the retry").isEqualTo(1);
          soft.assertThat(retry.statusCode()).as("retry: %s", retry.asString()).isEqualTo(201);
          soft.assertThat(retry.header("Idempotent-Replayed"))
              .as("the retry is a replay")
              .isEqualTo("true");
          soft.assertThat((String) retry.path("id"))
              .as("the retry's payment is the committed one")
              .isEqualTo(committedPaymentId);
          // Read as an object: a problem document's status is a number.
          soft.assertThat(String.valueOf((Object) retry.path("status"))).isEqualTo("CAPTURED");
          soft.assertThat(paymentsOfKey(key)).as("payments after the retry").isEqualTo(1);
          soft.assertThat(ShopDatabase.rows("alice", "payments.charge", key))
              .as("rows of the key")
              .isEqualTo(1);
          soft.assertThat(Sandbox.charges(orderId)).as("charges after the retry").isEqualTo(1);
          soft.assertThat(
                  (String) ShopApi.as("alice").get("/api/v1/orders/" + orderId).path("status"))
              .isEqualTo("PAID");
        });
  }

  /**
   * Sends alice's keyed POST with the fault header and requires that no answer comes: the server
   * halted. java.net.http rather than RestAssured: it never resends a POST on its own, so the
   * request is sent exactly once.
   */
  private static void postExpectingNoAnswer(String path, String key, String body)
      throws InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(ShopApi.URL + path))
            .timeout(Duration.ofSeconds(60))
            .header(
                "Authorization",
                "Basic "
                    + Base64.getEncoder()
                        .encodeToString("alice:alice-secret".getBytes(StandardCharsets.UTF_8)))
            .header("Content-Type", "application/json")
            .header("Idempotency-Key", key)
            .header(FAULT_HEADER, HALT_AFTER_COMMIT)
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build();
    HttpResponse<String> answer;
    try {
      answer = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException expected) {
      return; // the connection closed without an answer: the JVM is gone
    }
    fail(
        "the server answered %d %s instead of halting after the commit (is the it-faults WAR"
            + " deployed?)",
        answer.statusCode(), answer.body());
  }

  /** The key's row as "STATUS response_code", e.g. "COMPLETED 201". */
  private static String keyState(String operation, String key) {
    String where =
        " FROM idempotency_record WHERE tenant_id = 'alice' AND operation = ?"
            + " AND idempotency_key = ?";
    return ShopDatabase.text("SELECT status" + where, operation, key)
        + " "
        + ShopDatabase.text("SELECT response_code" + where, operation, key);
  }

  private static long paymentsOfKey(String key) {
    return ShopDatabase.count(
        "SELECT COUNT(*) FROM payment WHERE tenant_id = 'alice' AND idempotency_key = ?", key);
  }
}
