package it.com.banhang.shop;

import static it.com.banhang.shop.ShopApi.createOrder;
import static it.com.banhang.shop.ShopApi.newKey;
import static it.com.banhang.shop.ShopApi.newSku;
import static it.com.banhang.shop.ShopApi.orderBody;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.response.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The embedded database keeps what the shop answered (bench/h2-durability, docs/testing.md): a
 * burst of order creations, SIGKILL the moment the last 201 has arrived (no wait for a background
 * writer), restart, and every order answered 201 must be in the database and its key must replay
 * it. With H2's default WRITE_DELAY (commits written up to half a second later) this loses the last
 * orders of the burst; the shop's H2 URL sets WRITE_DELAY=0.
 */
@EnabledIfSystemProperty(
    named = "shop.db",
    matches = "h2",
    disabledReason =
        "about the embedded H2 database's durability; other suites run other databases")
class H2KillAfterAnswerIT {

  private static final int CLIENTS = 8;
  private static final int ORDERS_PER_CLIENT = 25;

  record Answered(String key, String body, String id, byte[] response) {}

  @Test
  void everyOrderAnswered201BeforeAKill9_isThereAfterTheRestart_andItsKeyReplaysIt()
      throws Exception {
    List<Answered> answered = new ArrayList<>();
    ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
    try {
      List<Future<List<Answered>>> burst = new ArrayList<>();
      for (int c = 0; c < CLIENTS; c++) {
        burst.add(
            clients.submit(
                () -> {
                  List<Answered> mine = new ArrayList<>();
                  for (int i = 0; i < ORDERS_PER_CLIENT; i++) {
                    String key = newKey();
                    String body = orderBody(newSku(), 1, 1_000);
                    Response created = createOrder("alice", key, body);
                    assertThat(created.statusCode()).as(created.asString()).isEqualTo(201);
                    mine.add(new Answered(key, body, created.path("id"), created.asByteArray()));
                  }
                  return mine;
                }));
      }
      for (Future<List<Answered>> client : burst) {
        answered.addAll(client.get());
      }
      // The last 201 has arrived: kill now, as a crash would, with no time to write anything.
      ShopServer.kill();
    } finally {
      clients.shutdownNow();
    }

    ShopServer.start();

    List<String> lost = new ArrayList<>();
    for (Answered order : answered) {
      if (ShopDatabase.count("SELECT COUNT(*) FROM shop_order WHERE id = ?", order.id()) != 1) {
        lost.add(order.id());
      }
    }
    assertThat(lost).as("orders answered 201 and missing after the kill").isEmpty();
    for (Answered order : answered) {
      Response replay = createOrder("alice", order.key(), order.body());
      assertThat(replay.statusCode()).as("replay of %s", order.key()).isEqualTo(201);
      assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
      assertThat(replay.asByteArray()).isEqualTo(order.response());
    }
    assertThat(answered).hasSize(CLIENTS * ORDERS_PER_CLIENT);
  }
}
