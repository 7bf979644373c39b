package it.com.banhang.shop;

import static it.com.banhang.shop.ShopApi.createOrder;
import static it.com.banhang.shop.ShopApi.newKey;
import static it.com.banhang.shop.ShopApi.newSku;
import static it.com.banhang.shop.ShopApi.orderBody;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.response.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Real threads against the running server and its database: one key, many racing attempts. */
class OrderConcurrencyIT {

  private static final int ATTEMPTS = 20;

  @Test
  void twentyParallelPosts_sameKey_createExactlyOneOrder() throws Exception {
    String key = newKey();
    String sku = newSku();
    String body = orderBody(sku, 2, 625_000);

    List<Response> responses = race(ATTEMPTS, () -> createOrder("alice", key, body));

    // orders.create claims its key inside its transaction (idempotency.local-claim, the
    // default): a duplicate waits on the key's lock and gets the committed answer, never 409.
    assertThat(responses)
        .as("every attempt is the first answer or its replay")
        .allSatisfy(r -> assertThat(r.statusCode()).as(r.asString()).isEqualTo(201));
    assertThat(responses.stream().filter(r -> r.statusCode() == 201).map(r -> r.path("id")))
        .as("every 201 is the first response or its replay")
        .containsOnly(
            (Object)
                responses.stream()
                    .filter(r -> r.statusCode() == 201)
                    .findFirst()
                    .orElseThrow()
                    .path("id"));
    assertThat(
            responses.stream()
                .filter(r -> r.statusCode() == 201 && r.header("Idempotent-Replayed") == null)
                .count())
        .as("exactly one attempt ran the operation")
        .isEqualTo(1);
    assertThat(responses.stream().filter(r -> "true".equals(r.header("Idempotent-Replayed"))))
        .hasSize(ATTEMPTS - 1);
    assertThat(ShopDatabase.ordersWithSku(sku)).isEqualTo(1);
    assertThat(ShopDatabase.heldKeys("alice", "orders.create", key)).isEqualTo(1);

    // Once the winner is done, every retry is its replay.
    Response after = createOrder("alice", key, body);
    assertThat(after.statusCode()).isEqualTo(201);
    assertThat(after.header("Idempotent-Replayed")).isEqualTo("true");
  }

  @Test
  void parallelPosts_distinctKeys_eachCreateTheirOwnOrder() throws Exception {
    String sku = newSku();
    String body = orderBody(sku, 1, 100);

    List<Response> responses = race(10, () -> createOrder("bob", newKey(), body));

    assertThat(responses).allSatisfy(r -> assertThat(r.statusCode()).isEqualTo(201));
    assertThat(ShopDatabase.ordersWithSku(sku)).isEqualTo(10);
  }

  /** Runs every attempt on {@code threads} threads, all released at once. */
  static <T> List<T> raceAll(int threads, List<java.util.concurrent.Callable<T>> attempts)
      throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<T>> futures = new ArrayList<>();
      for (java.util.concurrent.Callable<T> attempt : attempts) {
        futures.add(
            pool.submit(
                () -> {
                  start.await();
                  return attempt.call();
                }));
      }
      start.countDown();
      List<T> results = new ArrayList<>();
      for (Future<T> future : futures) {
        results.add(future.get(600, TimeUnit.SECONDS));
      }
      return results;
    } finally {
      pool.shutdownNow();
    }
  }

  /** Starts {@code n} threads that wait on one latch, so the requests leave together. */
  static <T> List<T> race(int n, java.util.concurrent.Callable<T> attempt) throws Exception {
    return raceAll(n, java.util.Collections.nCopies(n, attempt));
  }
}
