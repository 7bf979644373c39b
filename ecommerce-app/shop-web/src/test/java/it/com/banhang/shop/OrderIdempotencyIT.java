package it.com.banhang.shop;

import static it.com.banhang.shop.ShopApi.createOrder;
import static it.com.banhang.shop.ShopApi.newKey;
import static it.com.banhang.shop.ShopApi.newSku;
import static it.com.banhang.shop.ShopApi.orderBody;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

/**
 * orders.create, one request at a time: every outcome of docs/problems.md that a single client
 * sees.
 */
class OrderIdempotencyIT {

  @Test
  void firstAttempt_newKey_creates201WithLocationAndKeyExpiry() {
    String sku = newSku();
    Response created = createOrder("alice", newKey(), orderBody(sku, 2, 625_000));

    assertThat(created.statusCode()).isEqualTo(201);
    assertThat(created.header("Location")).contains("/api/v1/orders/" + created.path("id"));
    assertThat(created.header("Idempotency-Key-Expires")).endsWith("GMT");
    assertThat(created.header("Idempotent-Replayed")).isNull();
    assertThat((Integer) created.path("total")).isEqualTo(1_250_000);
    assertThat((String) created.path("status")).isEqualTo("PENDING_PAYMENT");
    assertThat(ShopDatabase.ordersWithSku(sku)).isEqualTo(1);
  }

  @Test
  void retry_sameKeySameBody_replaysByteIdenticalResponseWithoutSecondOrder() {
    String key = newKey();
    String sku = newSku();
    Response first = createOrder("alice", key, orderBody(sku, 2, 625_000));
    Response retry = createOrder("alice", key, orderBody(sku, 2, 625_000));

    assertThat(retry.statusCode()).isEqualTo(201);
    assertThat(retry.header("Idempotent-Replayed")).isEqualTo("true");
    assertThat(retry.asByteArray()).isEqualTo(first.asByteArray());
    assertThat(retry.header("Location")).isEqualTo(first.header("Location"));
    assertThat(retry.contentType()).isEqualTo(first.contentType());
    assertThat(ShopDatabase.ordersWithSku(sku)).isEqualTo(1);
  }

  @Test
  void retry_sameIntentSpelledDifferently_isStillAReplay() {
    String key = newKey();
    String sku = newSku();
    createOrder("alice", key, orderBody(sku, 2, 625_000));
    String reordered =
        "{ \"items\" : [ {\"unitPrice\": 625000.0, \"quantity\": 2, \"sku\": \""
            + sku
            + "\"} ],"
            + "\n \"currency\": \"VND\" }";

    Response retry = createOrder("alice", "\"" + key + "\"", reordered);

    assertThat(retry.statusCode()).isEqualTo(201);
    assertThat(retry.header("Idempotent-Replayed")).isEqualTo("true");
    assertThat(ShopDatabase.ordersWithSku(sku)).isEqualTo(1);
  }

  @Test
  void reuse_sameKeyOtherBody_is422AndCreatesNothing() {
    String key = newKey();
    String sku = newSku();
    Response first = createOrder("alice", key, orderBody(sku, 2, 625_000));
    Response reuse = createOrder("alice", key, orderBody(sku, 3, 625_000));

    assertThat(first.statusCode()).isEqualTo(201);
    assertThat(reuse.statusCode()).isEqualTo(422);
    assertThat(reuse.contentType()).startsWith("application/problem+json");
    assertThat((String) reuse.path("type")).endsWith("#idempotency-key-reused");
    assertThat((String) reuse.path("operation")).isEqualTo("orders.create");
    assertThat((String) reuse.path("idempotencyKeyExpiresAt")).isNotBlank();
    assertThat(reuse.asString()).doesNotContain(sku);
    assertThat(ShopDatabase.ordersWithSku(sku)).isEqualTo(1);
  }

  @Test
  void invalidBody_thenFixed_sameKeyRunsBecauseNothingWasClaimed() {
    String key = newKey();
    String sku = newSku();
    Response invalid = createOrder("alice", key, orderBody(sku, 0, -1));

    assertThat(invalid.statusCode()).isEqualTo(400);
    assertThat(invalid.contentType()).startsWith("application/problem+json");
    assertThat(invalid.jsonPath().getList("errors.field"))
        .containsExactly("items[0].quantity", "items[0].unitPrice");
    // Not even a released tombstone: the key was never claimed.
    assertThat(ShopDatabase.rows("alice", "orders.create", key)).isZero();

    Response fixed = createOrder("alice", key, orderBody(sku, 1, 10));
    assertThat(fixed.statusCode()).isEqualTo(201);
    assertThat(ShopDatabase.ordersWithSku(sku)).isEqualTo(1);
  }

  @Test
  void malformedOrAmbiguousJson_is400AndClaimsNothing() {
    String key = newKey();
    Response broken = createOrder("alice", key, "{\"currency\":\"VND\",");
    Response duplicate =
        createOrder("alice", key, "{\"currency\":\"VND\",\"currency\":\"USD\",\"items\":[]}");
    Response wrongType =
        createOrder(
            "alice", key, "{\"currency\":\"VND\",\"items\":[{\"sku\":\"a\",\"quantity\":\"x\"}]}");

    assertThat((String) broken.path("type")).endsWith("#malformed-request-body");
    assertThat((String) duplicate.path("type")).endsWith("#duplicate-json-member");
    assertThat(wrongType.statusCode()).isEqualTo(400);
    assertThat(wrongType.contentType()).startsWith("application/problem+json");
    assertThat(broken.statusCode()).isEqualTo(400);
    assertThat(duplicate.statusCode()).isEqualTo(400);
    assertThat(ShopDatabase.rows("alice", "orders.create", key)).isZero();
  }

  @Test
  void tooLargeBody_is413AndClaimsNothing() {
    String key = newKey();
    String huge = orderBody("x".repeat(70_000), 1, 1);

    Response response = createOrder("alice", key, huge);

    assertThat(response.statusCode()).isEqualTo(413);
    assertThat((String) response.path("type")).endsWith("#request-body-too-large");
    assertThat(ShopDatabase.rows("alice", "orders.create", key)).isZero();
  }

  @Test
  void failureInsideTheBusinessTransaction_leavesNoOrderAndReleasesTheKey() {
    String key = newKey();
    String body = orderBody("FAULT-AFTER-WRITE", 1, 1);

    Response failed = createOrder("alice", key, body);
    assertThat(failed.statusCode()).isEqualTo(500);
    assertThat(failed.contentType()).startsWith("application/problem+json");
    assertThat(failed.asString()).doesNotContain("Exception");
    assertThat(ShopDatabase.ordersWithSku("FAULT-AFTER-WRITE")).isZero();
    assertThat(ShopDatabase.heldKeys("alice", "orders.create", key)).isZero();

    // Released, not stored: the retry runs again (and fails again) instead of replaying or 409.
    Response retry = createOrder("alice", key, body);
    assertThat(retry.statusCode()).isEqualTo(500);
    assertThat(retry.header("Idempotent-Replayed")).isNull();
  }

  @Test
  void businessRejection_merchantOrderIdTaken_isStoredAndReplayed() {
    String merchantOrderId = "M-" + newKey();
    String first = withMerchantId(orderBody(newSku(), 1, 10), merchantOrderId);
    assertThat(createOrder("alice", newKey(), first).statusCode()).isEqualTo(201);

    String key = newKey();
    String second = withMerchantId(orderBody(newSku(), 1, 20), merchantOrderId);
    Response rejected = createOrder("alice", key, second);
    Response replay = createOrder("alice", key, second);

    assertThat(rejected.statusCode()).isEqualTo(409);
    assertThat((String) rejected.path("type")).endsWith("#merchant-order-id-taken");
    assertThat(replay.statusCode()).isEqualTo(409);
    assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
    assertThat(replay.asByteArray()).isEqualTo(rejected.asByteArray());
  }

  @Test
  void merchantOrderId_isPerTenant() {
    String merchantOrderId = "M-" + newKey();
    String body = withMerchantId(orderBody(newSku(), 1, 10), merchantOrderId);

    assertThat(createOrder("alice", newKey(), body).statusCode()).isEqualTo(201);
    assertThat(createOrder("bob", newKey(), body).statusCode()).isEqualTo(201);
  }

  @Test
  void read_ownOrder_isServed_otherTenantsOrder_is404() {
    Response created = createOrder("alice", newKey(), orderBody(newSku(), 1, 10));
    String id = created.path("id");

    Response own = ShopApi.as("alice").get("/api/v1/orders/" + id);
    Response foreign = ShopApi.as("bob").get("/api/v1/orders/" + id);

    assertThat(own.statusCode()).isEqualTo(200);
    assertThat((String) own.path("id")).isEqualTo(id);
    assertThat(foreign.statusCode()).isEqualTo(404);
    assertThat((String) foreign.path("type")).endsWith("#order-not-found");
  }

  @Test
  void storedBodies_areEncryptedAtRestExactlyWhenAKeyIsConfigured() {
    boolean encrypted = Boolean.getBoolean("shop.bodies.encrypted");
    String key = newKey();
    String sku = newSku();
    Response created = createOrder("alice", key, orderBody(sku, 1, 1));

    String stored =
        new String(
            ShopDatabase.storedBody("alice", "orders.create", key),
            java.nio.charset.StandardCharsets.ISO_8859_1);
    Response replay = createOrder("alice", key, orderBody(sku, 1, 1));

    if (encrypted) {
      assertThat(stored).doesNotContain(sku);
    } else {
      assertThat(stored).contains(sku);
    }
    assertThat(replay.asByteArray()).isEqualTo(created.asByteArray());
  }

  @Test
  void metrics_countReplaysAndReusedKeysPerOperation() {
    // Read before and after: the counters are the server's totals, which earlier tests moved.
    MetricsIT.Metrics before = MetricsIT.Metrics.read();
    String key = newKey();
    String sku = newSku();
    assertThat(createOrder("alice", key, orderBody(sku, 1, 1)).statusCode()).isEqualTo(201);
    assertThat(createOrder("alice", key, orderBody(sku, 1, 1)).statusCode()).isEqualTo(201);
    assertThat(createOrder("alice", key, orderBody(sku, 2, 1)).statusCode()).isEqualTo(422);
    MetricsIT.Metrics after = MetricsIT.Metrics.read();

    for (var expected :
        java.util.Map.of("completed", 1.0, "replayed", 1.0, "key_reused", 1.0, "released", 0.0)
            .entrySet()) {
      String[] series = {"operation", "orders.create", "outcome", expected.getKey()};
      assertThat(
              after.value("idempotency_requests_total", series)
                  - before.value("idempotency_requests_total", series))
          .as("idempotency_requests_total{outcome=%s} moved by", expected.getKey())
          .isEqualTo(expected.getValue());
    }
  }

  static String withMerchantId(String body, String merchantOrderId) {
    return body.replaceFirst("\\{", "{\"merchantOrderId\":\"" + merchantOrderId + "\",");
  }
}
