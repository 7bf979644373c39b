package it.com.banhang.shop;

import static io.restassured.RestAssured.given;
import static it.com.banhang.shop.ShopApi.createOrder;
import static it.com.banhang.shop.ShopApi.newKey;
import static it.com.banhang.shop.ShopApi.newSku;
import static it.com.banhang.shop.ShopApi.orderBody;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.http.ContentType;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

/** Scope and authorization (docs/idempotency.md): a key is never a credential. */
@SameOnEveryDatabase
class SecurityIT {

  @Test
  void anonymousCall_is401ProblemAndNothingIsCreated() {
    String sku = newSku();
    Response response =
        given()
            .baseUri(ShopApi.URL)
            .contentType(ContentType.JSON)
            .header("Idempotency-Key", newKey())
            .body(orderBody(sku, 1, 1))
            .post("/api/v1/orders");

    assertThat(response.statusCode()).isEqualTo(401);
    assertThat(response.contentType()).startsWith("application/problem+json");
    assertThat(response.header("WWW-Authenticate")).startsWith("Basic");
    assertThat(ShopDatabase.ordersWithSku(sku)).isZero();
  }

  @Test
  void sameKeyUnderTwoTenants_namesTwoIndependentIntents() {
    String key = newKey();
    String sku = newSku();
    Response alices = createOrder("alice", key, orderBody(sku, 1, 1));
    Response bobs = createOrder("bob", key, orderBody(sku, 1, 1));

    assertThat(alices.statusCode()).isEqualTo(201);
    assertThat(bobs.statusCode()).isEqualTo(201);
    assertThat(bobs.header("Idempotent-Replayed")).isNull();
    assertThat((String) bobs.path("id")).isNotEqualTo(alices.path("id"));
    assertThat(ShopDatabase.ordersWithSku(sku)).isEqualTo(2);
  }

  @Test
  void callerWithoutTheCustomerRole_gets403_neverTheStoredResponse() {
    String key = newKey();
    String body = orderBody(newSku(), 1, 1);
    Response alices = createOrder("alice", key, body);
    Response operators =
        ShopApi.as("operator")
            .contentType(ContentType.JSON)
            .header("Idempotency-Key", key)
            .body(body)
            .post("/api/v1/orders");

    assertThat(alices.statusCode()).isEqualTo(201);
    assertThat(operators.statusCode()).isEqualTo(403);
    assertThat(operators.contentType()).startsWith("application/problem+json");
    assertThat(operators.asString()).doesNotContain((String) alices.path("id"));
  }

  @Test
  void wrongPassword_is401() {
    Response response =
        given()
            .baseUri(ShopApi.URL)
            .auth()
            .preemptive()
            .basic("alice", "not-her-password")
            .get("/api/v1/orders/anything");

    assertThat(response.statusCode()).isEqualTo(401);
  }

  @Test
  void health_isUp() {
    Response health = given().baseUri(ShopApi.URL).get("/health");

    assertThat(health.statusCode()).isEqualTo(200);
    assertThat((String) health.path("status")).isEqualTo("UP");
  }
}
