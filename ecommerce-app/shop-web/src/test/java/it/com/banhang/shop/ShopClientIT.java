package it.com.banhang.shop;

import static it.com.banhang.shop.Payments.TOTAL;
import static it.com.banhang.shop.Payments.newOrder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.banhang.shop.client.IntentStore;
import com.banhang.shop.client.PaymentRequest;
import com.banhang.shop.client.Result;
import com.banhang.shop.client.RetryPolicy;
import com.banhang.shop.client.ShopClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java client (ecommerce-app/client, docs/client.md) against the real shop and the gateway
 * sandbox under faults: what the client says of each intent must be what the gateway did, and a
 * retry, a concurrent duplicate or a client killed and started again must never charge twice.
 */
@RunOnceOnH2
class ShopClientIT {

  private static final PaymentRequest PAYMENT = new PaymentRequest(TOTAL, "VND", "pm_card_ok");

  @TempDir Path intents;

  @AfterEach
  void noFaults() {
    Sandbox.noFaults();
  }

  private static ShopClient client(RetryPolicy policy, IntentStore store) {
    return ShopClient.builder()
        .baseUri(ShopApi.URL)
        .basicAuth("alice", "alice-secret")
        .intentStore(store)
        .retryPolicy(policy)
        .build();
  }

  @Test
  void slowGateway_theClientRetriesUnderItsKey_eachIntentSucceedsAndIsChargedOnce()
      throws Exception {
    // Every charge answers 1.2 s after it is made (well inside the shop's 3 s read timeout, even on
    // a loaded machine); the client gives each try 0.4 s.
    Sandbox.faults("{\"latencyMs\":1200,\"latencyPhase\":\"AFTER_CHARGE\"}");
    ShopClient shop =
        client(
            RetryPolicy.defaults()
                .withPerTryTimeout(Duration.ofMillis(400))
                .withMaxDelay(Duration.ofSeconds(1))
                .withDeadline(Duration.ofSeconds(60)),
            IntentStore.inMemory());
    List<String> orders = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      orders.add(newOrder("alice"));
    }
    ExecutorService customers = Executors.newFixedThreadPool(orders.size());
    try {
      List<Future<Result>> paid = new ArrayList<>();
      for (String order : orders) {
        paid.add(customers.submit(() -> shop.payments().pay(order, PAYMENT)));
      }
      for (int i = 0; i < orders.size(); i++) {
        Result result = paid.get(i).get(2, TimeUnit.MINUTES);
        assertThat(result)
            .as("a try timed out, so the answer came to a retry, as a replay")
            .isInstanceOf(Result.Replayed.class);
        assertThat(((Result.Success) result).json().getString("status")).isEqualTo("CAPTURED");
        assertThat(Sandbox.charges(orders.get(i))).isEqualTo(1);
      }
    } finally {
      customers.shutdownNow();
    }
    assertThat(shop.pending()).as("every intent had its final answer").isEmpty();
  }

  @Test
  void aStormOfTriesOnOneKey_oneChargeAndOneAnswerForAll() throws Exception {
    Sandbox.faults("{\"latencyMs\":1000,\"latencyPhase\":\"AFTER_CHARGE\"}");
    ShopClient shop =
        client(
            RetryPolicy.defaults()
                .withPerTryTimeout(Duration.ofMillis(300))
                .withDeadline(Duration.ofSeconds(60)),
            IntentStore.inMemory());
    String order = newOrder("alice");
    String key = UUID.randomUUID().toString();
    ExecutorService devices = Executors.newFixedThreadPool(10);
    try {
      List<Future<Result>> tries = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        tries.add(
            devices.submit((Callable<Result>) () -> shop.payments().pay(order, PAYMENT, key)));
      }
      String payment = null;
      for (Future<Result> attempt : tries) {
        Result result = attempt.get(2, TimeUnit.MINUTES);
        assertThat(result).isInstanceOf(Result.Success.class);
        String id = ((Result.Success) result).json().getString("id");
        assertThat(payment == null || payment.equals(id)).as("one payment for all: " + id).isTrue();
        payment = id;
      }
    } finally {
      devices.shutdownNow();
    }
    assertThat(Sandbox.charges(order)).isEqualTo(1);
  }

  @Test
  void lostAnswers_outcomeUnknownWithItsKey_thenResumedAfterReconciliation_chargedOnce() {
    // Charged, then every answer for that gateway key lost, the shop's own retries included.
    Sandbox.faults(
        "{\"dropResponseProbability\":1,\"faultsOnReplays\":true,\"dropMode\":\"GATEWAY_TIMEOUT\"}");
    ShopClient shop =
        client(
            RetryPolicy.defaults().withDeadline(Duration.ofSeconds(8)),
            IntentStore.inFolder(intents));
    String order = newOrder("alice");

    Result first = shop.payments().pay(order, PAYMENT);

    assertThat(first).isInstanceOf(Result.OutcomeUnknown.class);
    Result.OutcomeUnknown unknown = (Result.OutcomeUnknown) first;
    assertThat(unknown.intentId()).isPresent();
    assertThat(unknown.tries()).as("it kept trying while the outcome was unknown").isGreaterThan(1);
    assertThat(Sandbox.charges(order)).as("the gateway did charge").isEqualTo(1);
    assertThat(shop.pending())
        .extracting(i -> i.idempotencyKey())
        .contains(unknown.idempotencyKey());

    Sandbox.noFaults();
    assertThat(Payments.reconcileNowReport().get("CAPTURED")).isGreaterThanOrEqualTo(1);
    Result resumed = shop.resume(unknown.intentId().orElseThrow());

    assertThat(resumed).isInstanceOf(Result.Replayed.class);
    assertThat(((Result.Success) resumed).json().getString("status")).isEqualTo("CAPTURED");
    assertThat(Sandbox.charges(order)).isEqualTo(1);
    assertThat(shop.pending()).isEmpty();
  }

  @Test
  void aDeclinedCard_isDeclined_notRetriedIntoACharge() {
    ShopClient shop = client(RetryPolicy.defaults(), IntentStore.inMemory());
    String order = newOrder("alice");

    Result result =
        shop.payments().pay(order, new PaymentRequest(TOTAL, "VND", "pm_card_declined"));

    assertThat(result).isInstanceOf(Result.Declined.class);
    assertThat(((Result.Declined) result).problem().slug()).isEqualTo("payment-declined");
    assertThat(Sandbox.charges(order)).isZero();
  }

  @Test
  void aClientKilledMidPayment_resumesFromItsIntentFolder_withoutASecondCharge() throws Exception {
    // The charge is made at once and answered 2 s later: the client dies while waiting for it.
    Sandbox.faults("{\"latencyMs\":2000,\"latencyPhase\":\"AFTER_CHARGE\"}");
    String order = newOrder("alice");
    Process app =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                ClientProcess.class.getName(),
                ShopApi.URL,
                intents.toString(),
                order,
                Long.toString(TOTAL))
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    try {
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(200))
          .until(() -> Sandbox.charges(order) == 1);
      assertThat(app.isAlive()).as("the app still waits for the answer").isTrue();
    } finally {
      app.destroyForcibly(); // SIGKILL: no shutdown hook, nothing cleaned up
      app.waitFor(30, TimeUnit.SECONDS);
    }
    Sandbox.noFaults();
    try (var files = Files.list(intents)) {
      assertThat(files.count()).as("the dead app's intent is on disk").isPositive();
    }

    ShopClient restarted = client(RetryPolicy.defaults(), IntentStore.inFolder(intents));
    assertThat(restarted.pending()).hasSize(1);
    Result resumed = restarted.resume(restarted.pending().get(0).id());

    assertThat(resumed).isInstanceOf(Result.Replayed.class);
    assertThat(((Result.Success) resumed).json().getString("status")).isEqualTo("CAPTURED");
    assertThat(Sandbox.charges(order)).as("the resumed intent was not charged again").isEqualTo(1);
    assertThat(restarted.pending()).isEmpty();
  }
}
