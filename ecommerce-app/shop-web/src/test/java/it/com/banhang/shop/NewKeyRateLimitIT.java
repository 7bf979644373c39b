package it.com.banhang.shop;

import static io.restassured.RestAssured.given;
import static it.com.banhang.shop.ShopApi.createOrder;
import static it.com.banhang.shop.ShopApi.newKey;
import static it.com.banhang.shop.ShopApi.newSku;
import static it.com.banhang.shop.ShopApi.orderBody;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.response.Response;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The per-tenant rate limit of new keys (docs/idempotency.md, "Rate limit of new keys"). The
 * integration servers give the test customer carol {@value #LIMIT} new keys per operation per hour
 * ({@code -Didempotency.new-keys.tenant.carol=3/PT1H}); no other test uses carol.
 */
@SameOnEveryDatabase
class NewKeyRateLimitIT {

  private static final int LIMIT = 3;

  @Test
  void overTheTenantLimit_429ProblemWithRetryAfter_nothingWritten_replaysStillServed() {
    List<String> keys = new ArrayList<>();
    List<String> bodies = new ArrayList<>();
    List<Response> firsts = new ArrayList<>();
    for (int i = 0; i < LIMIT; i++) {
      String key = newKey();
      String body = orderBody(newSku(), 1, 1);
      Response first = createOrder("carol", key, body);
      assertThat(first.statusCode()).as(first.asString()).isEqualTo(201);
      keys.add(key);
      bodies.add(body);
      firsts.add(first);
    }

    String overSku = newSku();
    Response over = createOrder("carol", newKey(), orderBody(overSku, 1, 1));

    assertThat(over.statusCode()).isEqualTo(429);
    assertThat(over.contentType()).startsWith("application/problem+json");
    assertThat(Long.parseLong(over.header("Retry-After"))).isBetween(1L, 3600L);
    assertThat((String) over.path("type")).endsWith("too-many-new-keys");
    assertThat((Integer) over.path("status")).isEqualTo(429);
    assertThat((String) over.path("operation")).isEqualTo("orders.create");
    assertStatesTheExpiryOfAClaimMadeNow(over, Duration.ofHours(24));
    assertThat(ShopDatabase.ordersWithSku(overSku)).isZero();

    for (int i = 0; i < LIMIT; i++) {
      Response replay = createOrder("carol", keys.get(i), bodies.get(i));
      assertThat(replay.statusCode()).isEqualTo(201);
      assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
      assertThat(replay.asByteArray()).isEqualTo(firsts.get(i).asByteArray());
    }
    // A reused key is answered 422 as before, not 429: it would write nothing.
    Response reused = createOrder("carol", keys.get(0), orderBody(newSku(), 2, 1));
    assertThat(reused.statusCode()).isEqualTo(422);
    // Other tenants keep their own limit.
    assertThat(createOrder("alice", newKey(), orderBody(newSku(), 1, 1)).statusCode())
        .isEqualTo(201);
  }

  @Test
  void paymentsOverTheTenantLimit_429ProblemStatesOperationAndExpiry_nothingWritten() {
    // carol's payments.charge bucket is its own. The 429 comes before the method, so the order
    // need not exist: the first attempts are answered 404 (stored), the one over the limit 429.
    String orderId = "no-such-order-" + newKey();
    for (int i = 0; i < LIMIT; i++) {
      Response first = payAsCarol(orderId, newKey());
      assertThat(first.statusCode()).as(first.asString()).isNotEqualTo(429);
    }
    String key = newKey();

    Response over = payAsCarol(orderId, key);

    assertThat(over.statusCode()).as(over.asString()).isEqualTo(429);
    assertThat((String) over.path("type")).endsWith("too-many-new-keys");
    assertThat((String) over.path("operation")).isEqualTo("payments.charge");
    assertStatesTheExpiryOfAClaimMadeNow(over, Duration.ofDays(7));
    assertThat(ShopDatabase.rows("carol", "payments.charge", key)).isZero();
  }

  private static Response payAsCarol(String orderId, String key) {
    return ShopApi.as("carol")
        .contentType(io.restassured.http.ContentType.JSON)
        .header("Idempotency-Key", key)
        .body("{\"amount\":1,\"currency\":\"VND\",\"paymentMethod\":\"pm_card_ok\"}")
        .post("/api/v1/orders/" + orderId + "/payments");
  }

  /** No row binds a limited key: it states the expiry a claim made now would get. */
  private static void assertStatesTheExpiryOfAClaimMadeNow(Response over, Duration ttl) {
    Instant expiresAt =
        KeyExpiryIT.assertProblemStatesExpiry(over, (String) over.path("operation"));
    assertThat(expiresAt)
        .isBetween(
            Instant.now().plus(ttl).minus(Duration.ofMinutes(2)),
            Instant.now().plus(ttl).plus(Duration.ofMinutes(1)));
  }

  @Test
  void openApi_documents429OnTheIdempotentOperation() {
    Response document =
        given().baseUri(ShopApi.URL).accept("application/json").get("/openapi?format=JSON");

    assertThat(document.statusCode()).isEqualTo(200);
    assertThat(document.jsonPath().getMap("paths.'/api/v1/orders'.post.responses"))
        .containsKey("429");
    assertThat(document.jsonPath().getMap("paths.'/api/v1/orders/{orderId}'.get.responses"))
        .doesNotContainKey("429");
  }
}
