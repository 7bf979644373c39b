package it.com.banhang.shop;

import static it.com.banhang.shop.Payments.newOrder;
import static it.com.banhang.shop.Payments.pay;
import static it.com.banhang.shop.ShopApi.newKey;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.restassured.response.Response;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The circuit breaker on the charge call (docs/payments.md, "Fault Tolerance on the gateway
 * calls"): once the processor has failed enough tries, the shop stops calling it; a payment then
 * gets 503 payment-gateway-unavailable without anything being sent, its key is released, and the
 * same key charges once after the circuit closes. Uses the defaults: 40 tries, 3/4 failed, open for
 * 10 s, closed again by one success (which also empties its window, so the suites after this one
 * start with a fresh circuit).
 */
@RunOnceOnH2
class GatewayCircuitIT {

  private static final String CHARGE = "payments.charge";

  @AfterEach
  void noFaults() {
    Sandbox.noFaults();
  }

  @Test
  void anOpenCircuitAnswersNotCharged_releasesTheKey_andTheRetryAfterItClosesChargesOnce() {
    // Every try answered 503 (nothing charged): each payment makes three tries, all failures.
    Sandbox.faults("{\"errorBeforeChargeProbability\":1}");
    for (int i = 0; i < 15; i++) {
      Response failed = pay("bob", newOrder("bob"), newKey(), "pm_card_ok");
      assertThat(failed.statusCode()).isEqualTo(503);
      assertThat((String) failed.path("type")).endsWith("#payment-gateway-unavailable");
      assertThat(failed.header("Retry-After")).as("when to try again").isEqualTo("5");
    }
    // The processor works again, but the circuit is open: the shop does not call it.
    Sandbox.noFaults();
    String orderId = newOrder("bob");
    String key = newKey();

    Response refused = pay("bob", orderId, key, "pm_card_ok");

    assertThat(refused.statusCode()).isEqualTo(503);
    assertThat(refused.contentType()).startsWith("application/problem+json");
    assertThat((String) refused.path("type")).endsWith("#payment-gateway-unavailable");
    assertThat(refused.header("Retry-After")).isEqualTo("5");
    assertThat(Sandbox.charges(orderId)).as("a processor that works was not called").isZero();
    assertThat(ShopDatabase.heldKeys("bob", CHARGE, key)).as("the key is released").isZero();

    // Once the circuit lets a try through again, the same key charges, once.
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofSeconds(2))
        .until(() -> pay("bob", orderId, key, "pm_card_ok").statusCode() == 201);
    assertThat(Sandbox.charges(orderId)).isEqualTo(1);
  }
}
