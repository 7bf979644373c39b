package it.com.banhang.shop;

import static it.com.banhang.shop.Payments.TOTAL;
import static it.com.banhang.shop.Payments.newOrder;
import static it.com.banhang.shop.ShopApi.createOrder;
import static it.com.banhang.shop.ShopApi.newKey;
import static it.com.banhang.shop.ShopApi.newSku;
import static it.com.banhang.shop.ShopApi.orderBody;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A body that fails binding (a string where a number belongs) or Bean Validation is answered 400
 * before the key is claimed (docs/idempotency.md, "Invalid body before execution"): no row at all
 * is written for the key, concurrent copies of the invalid request are all 400 (never 409), and the
 * fixed body then runs under the same key. On both keyed operations.
 */
@SameOnEveryDatabase
class InvalidBodyIT {

  private static final int COPIES = 20;

  @Test
  void ordersCreate_invalidAndWrongTypeBodies_writeNoRow_thenTheFixedBodyRuns() {
    String key = newKey();
    String sku = newSku();

    Response invalid = createOrder("alice", key, orderBody(sku, 0, -1));
    Response wrongType = createOrder("alice", key, wrongTypeOrder(sku));

    assertBadRequestNamingFields(invalid);
    assertThat(invalid.jsonPath().getList("errors.field"))
        .containsExactly("items[0].quantity", "items[0].unitPrice");
    assertThat(wrongType.statusCode()).as(wrongType.asString()).isEqualTo(400);
    assertThat(wrongType.contentType()).startsWith("application/problem+json");
    assertThat(wrongType.header("Idempotency-Key-Expires")).endsWith("GMT");
    assertThat(ShopDatabase.rows("alice", "orders.create", key)).isZero();

    Response fixed = createOrder("alice", key, orderBody(sku, 1, 10));
    assertThat(fixed.statusCode()).isEqualTo(201);
    assertThat(fixed.header("Idempotent-Replayed")).isNull();
    assertThat(ShopDatabase.ordersWithSku(sku)).isEqualTo(1);
  }

  @Test
  void paymentsCharge_invalidAndWrongTypeBodies_writeNoRow_thenTheFixedBodyRuns() {
    String orderId = newOrder("alice");
    String key = newKey();

    Response invalid =
        pay(orderId, key, "{\"amount\":-5,\"currency\":\"VND\",\"paymentMethod\":\"x\"}");
    Response wrongType =
        pay(
            orderId,
            key,
            "{\"amount\":\"lots\",\"currency\":\"VND\",\"paymentMethod\":\"pm_card_ok\"}");

    assertBadRequestNamingFields(invalid);
    assertThat(invalid.jsonPath().getList("errors.field"))
        .containsExactly("amount", "paymentMethod");
    assertThat(wrongType.statusCode()).as(wrongType.asString()).isEqualTo(400);
    assertThat(wrongType.contentType()).startsWith("application/problem+json");
    assertThat(wrongType.header("Idempotency-Key-Expires")).endsWith("GMT");
    assertThat(ShopDatabase.rows("alice", "payments.charge", key)).isZero();
    assertThat(Sandbox.charges(orderId)).isZero();

    Response fixed = pay(orderId, key, validPayment());
    assertThat(fixed.statusCode()).as(fixed.asString()).isEqualTo(201);
    assertThat(Sandbox.charges(orderId)).isEqualTo(1);
  }

  @Test
  void ordersCreate_twentyConcurrentInvalidCopies_allAnswered400_thenTheValidBody201()
      throws Exception {
    String key = newKey();
    String sku = newSku();

    List<Response> copies =
        OrderConcurrencyIT.race(COPIES, () -> createOrder("alice", key, orderBody(sku, 0, 1)));

    assertThat(copies).allSatisfy(InvalidBodyIT::assertBadRequestNamingFields);
    assertThat(ShopDatabase.rows("alice", "orders.create", key)).isZero();
    Response valid = createOrder("alice", key, orderBody(sku, 1, 1));
    assertThat(valid.statusCode()).isEqualTo(201);
    assertThat(valid.header("Idempotent-Replayed")).isNull();
    assertThat(ShopDatabase.ordersWithSku(sku)).isEqualTo(1);
  }

  @Test
  void paymentsCharge_twentyConcurrentInvalidCopies_allAnswered400_thenTheValidBody201()
      throws Exception {
    String orderId = newOrder("alice");
    String key = newKey();
    String invalid =
        "{\"amount\":" + TOTAL + ",\"currency\":\"dong\",\"paymentMethod\":\"pm_card_ok\"}";

    List<Response> copies = OrderConcurrencyIT.race(COPIES, () -> pay(orderId, key, invalid));

    assertThat(copies).allSatisfy(InvalidBodyIT::assertBadRequestNamingFields);
    assertThat(ShopDatabase.rows("alice", "payments.charge", key)).isZero();
    Response valid = pay(orderId, key, validPayment());
    assertThat(valid.statusCode()).as(valid.asString()).isEqualTo(201);
    assertThat(Sandbox.charges(orderId)).isEqualTo(1);
  }

  private static void assertBadRequestNamingFields(Response response) {
    assertThat(response.statusCode()).as(response.asString()).isEqualTo(400);
    assertThat(response.contentType()).startsWith("application/problem+json");
    assertThat((String) response.path("type")).endsWith("#invalid-request-body");
    assertThat(response.jsonPath().getList("errors.field")).isNotEmpty();
    assertThat(response.header("Idempotency-Key-Expires")).endsWith("GMT");
  }

  private static String wrongTypeOrder(String sku) {
    return "{\"currency\":\"VND\",\"items\":[{\"sku\":\""
        + sku
        + "\",\"quantity\":\"two\",\"unitPrice\":1}]}";
  }

  private static String validPayment() {
    return "{\"amount\":" + TOTAL + ",\"currency\":\"VND\",\"paymentMethod\":\"pm_card_ok\"}";
  }

  private static Response pay(String orderId, String key, String body) {
    return ShopApi.as("alice")
        .contentType(ContentType.JSON)
        .header("Idempotency-Key", key)
        .body(body)
        .post("/api/v1/orders/" + orderId + "/payments");
  }
}
