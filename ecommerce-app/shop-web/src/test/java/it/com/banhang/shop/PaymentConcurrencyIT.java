package it.com.banhang.shop;

import static it.com.banhang.shop.OrderConcurrencyIT.race;
import static it.com.banhang.shop.Payments.newOrder;
import static it.com.banhang.shop.Payments.pay;
import static it.com.banhang.shop.ShopApi.newKey;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.response.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Real threads against the running shop and sandbox : the sandbox's count of charges per order is
 * the ground truth.
 */
class PaymentConcurrencyIT {

  @Test
  void twentyParallelPayments_oneKey_chargeExactlyOnce() throws Exception {
    String orderId = newOrder("alice");
    String key = newKey();
    // A gateway as slow as a real processor under load, so the duplicates arrive while the first
    // one runs.
    Sandbox.faults("{\"latencyMs\":300}");
    try {
      List<Response> responses = race(20, () -> pay("alice", orderId, key, "pm_card_ok"));

      assertThat(responses).allSatisfy(r -> assertThat(r.statusCode()).isIn(201, 409));
      assertThat(responses.stream().filter(r -> r.statusCode() == 409))
          .allSatisfy(r -> assertThat((String) r.path("type")).endsWith("#idempotency-key-in-use"));
      assertThat(
              responses.stream()
                  .filter(r -> r.statusCode() == 201 && r.header("Idempotent-Replayed") == null)
                  .count())
          .isEqualTo(1);
      assertThat(Sandbox.charges(orderId)).isEqualTo(1);
      System.out.printf(
          "20 parallel payments, one key: %s; charges %d%n",
          statusCounts(responses), Sandbox.charges(orderId));
    } finally {
      Sandbox.noFaults();
    }
  }

  @Test
  void twoKeysPayingOneOrderAtOnce_chargeOnce_theOtherIsRefused() throws Exception {
    String orderId = newOrder("alice");
    String firstKey = newKey();
    String secondKey = newKey();
    Sandbox.faults("{\"latencyMs\":300}");
    List<Response> responses;
    try {
      responses =
          OrderConcurrencyIT.raceAll(
              2,
              List.of(
                  () -> pay("alice", orderId, firstKey, "pm_card_ok"),
                  () -> pay("alice", orderId, secondKey, "pm_card_ok")));
    } finally {
      Sandbox.noFaults();
    }

    assertThat(responses.stream().filter(r -> r.statusCode() == 201).count()).isEqualTo(1);
    Response refused =
        responses.stream().filter(r -> r.statusCode() != 201).findFirst().orElseThrow();
    assertThat(refused.statusCode()).isEqualTo(409);
    assertThat((String) refused.path("type"))
        .matches(".*#(payment-in-progress|order-already-paid)");
    assertThat(Sandbox.charges(orderId)).isEqualTo(1);
  }

  @Test
  void aHundredKeys_fiveParallelAttemptsEach_exactlyAHundredCharges() throws Exception {
    // 100 keys: 500 requests on 16 threads, each key's five attempts racing each other; more keys
    // add time, not races of another kind.
    int intents = 100;
    List<String> orders = new ArrayList<>();
    for (int i = 0; i < intents; i++) {
      orders.add(newOrder(i % 2 == 0 ? "alice" : "bob"));
    }
    List<Callable<Response>> attempts = new ArrayList<>();
    for (int i = 0; i < intents; i++) {
      String user = i % 2 == 0 ? "alice" : "bob";
      String orderId = orders.get(i);
      String key = newKey();
      for (int a = 0; a < 5; a++) {
        attempts.add(() -> pay(user, orderId, key, "pm_card_ok"));
      }
    }
    // The five attempts of a key sit side by side, so the pool's threads take them together.
    Sandbox.faults("{\"latencyMs\":50}");
    List<Response> responses;
    try {
      responses = OrderConcurrencyIT.raceAll(16, attempts);
    } finally {
      Sandbox.noFaults();
    }

    assertThat(responses).allSatisfy(r -> assertThat(r.statusCode()).isIn(201, 409));
    long charges = 0;
    for (String orderId : orders) {
      long perOrder = Sandbox.charges(orderId);
      assertThat(perOrder).as("charges of order %s", orderId).isEqualTo(1);
      charges += perOrder;
    }
    assertThat(charges).isEqualTo(intents);
    System.out.printf(
        "%d keys x 5 parallel attempts: %s; charges %d%n",
        intents, statusCounts(responses), charges);
  }

  static Map<String, Long> statusCounts(List<Response> responses) {
    return responses.stream()
        .map(
            r -> r.statusCode() + ("true".equals(r.header("Idempotent-Replayed")) ? " replay" : ""))
        .collect(
            Collectors.groupingBy(
                Function.identity(), java.util.TreeMap::new, Collectors.counting()));
  }
}
