package it.com.banhang.shop;

import static it.com.banhang.shop.Payments.newOrder;
import static it.com.banhang.shop.Payments.pay;
import static it.com.banhang.shop.ShopApi.newKey;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.restassured.response.Response;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/**
 * Kill the worker during the side effect. The shop's JVM dies after the processor charged and
 * before the shop recorded it; after a restart, reconciliation finds the charge by its gateway key
 * and completes the payment: one charge, and the client's retry gets the payment.
 */
class ShopCrashIT {

  @Test
  void shopKilledAfterTheChargeBeforeItsRecord_reconciledAfterRestart_oneCharge() throws Exception {
    String orderId = newOrder("alice");
    String key = newKey();
    // The processor charges at once and answers 10 s later: the shop is killed while it waits.
    Sandbox.faults("{\"latencyMs\":10000,\"latencyPhase\":\"AFTER_CHARGE\"}");
    ExecutorService client = Executors.newSingleThreadExecutor();
    try {
      client.submit(() -> pay("alice", orderId, key, "pm_card_ok"));
      await().atMost(Duration.ofSeconds(30)).until(() -> Sandbox.charges(orderId) == 1);
      // The attempt was committed before the gateway call; once another connection sees it, it is
      // in the database's files (the shop's H2 writes every commit at once, WRITE_DELAY=0).
      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () ->
                  ShopDatabase.count(
                          "SELECT COUNT(*) FROM payment WHERE order_id = ? AND status = 'PENDING'",
                          orderId)
                      == 1);
      ShopServer.kill();
    } finally {
      client.shutdownNow();
      Sandbox.noFaults();
    }

    // A restart can take most of a minute on a loaded machine, and the scheduled reconciliation
    // (minimum age 60 s) would then settle the key before the retry below sees it unresolved: the
    // key's age starts again after the restart.
    ShopDatabase.age("alice", "payments.charge", key, Duration.ofSeconds(-90));
    ShopServer.start();

    // Within the key's lease (counted from the claim) a retry is told the key is in use; once it
    // has run out, that the outcome is unknown.
    Response whileUnresolved =
        await()
            .atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofSeconds(1))
            .until(
                () -> pay("alice", orderId, key, "pm_card_ok"),
                r ->
                    r.statusCode() != 409
                        || !((String) r.path("type")).endsWith("#idempotency-key-in-use"));
    assertThat(whileUnresolved.statusCode()).isEqualTo(409);
    assertThat((String) whileUnresolved.path("type")).endsWith("#payment-outcome-unknown");
    assertThat(whileUnresolved.header("Retry-After")).isNotBlank();
    assertThat(Sandbox.charges(orderId)).isEqualTo(1);

    assertThat(Payments.keyState("alice", key)).startsWith("PROCESSING ");
    ShopDatabase.age("alice", "payments.charge", key, Duration.ofMinutes(2));
    // The key is older than the schedule's minimum age now, so the scheduled run may settle it
    // first: the report's counts are not this key's, but the report must be whole.
    Payments.reconcileNowReport();
    assertThat(Payments.keyState("alice", key)).isEqualTo("COMPLETED 201");

    Response retry = pay("alice", orderId, key, "pm_card_ok");
    assertThat(retry.statusCode()).isEqualTo(201);
    assertThat(retry.header("Idempotent-Replayed")).isEqualTo("true");
    assertThat((String) retry.path("status")).isEqualTo("CAPTURED");
    String order = ShopApi.as("alice").get("/api/v1/orders/" + orderId).path("status");
    assertThat(order).isEqualTo("PAID");
    assertThat(Sandbox.charges(orderId)).isEqualTo(1);
  }
}
