package it.com.banhang.shop;

import static io.restassured.RestAssured.given;

import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.util.UUID;

/** The shop as its clients see it: HTTP on the server that the build started. */
public final class ShopApi {

  public static final String URL = System.getProperty("shop.url", "http://localhost:9080");

  private ShopApi() {}

  /**
   * Every request carries the operator API's cross-site request guard header (docs/operations.md);
   * the tests of the guard itself send their requests without this helper.
   */
  public static RequestSpecification as(String user) {
    return given()
        .baseUri(URL)
        .auth()
        .preemptive()
        .basic(user, user + "-secret")
        .header("X-Requested-By", "banhang-it");
  }

  public static Response createOrder(String user, String key, String body) {
    RequestSpecification request = as(user).contentType(ContentType.JSON).body(body);
    if (key != null) {
      request = request.header("Idempotency-Key", key);
    }
    return request.post("/api/v1/orders");
  }

  /** An operator's retention run now ({@code POST /api/v1/admin/purges}), under a new key. */
  public static Response purgeNow() {
    return as("operator")
        .contentType(ContentType.JSON)
        .header("Idempotency-Key", newKey())
        .post("/api/v1/admin/purges");
  }

  public static String newKey() {
    return UUID.randomUUID().toString();
  }

  /** A SKU no other test uses, so that rows can be counted per test. */
  public static String newSku() {
    return "SKU-" + UUID.randomUUID().toString().substring(0, 18);
  }

  public static String orderBody(String sku, int quantity, long unitPrice) {
    return "{\"currency\":\"VND\",\"items\":[{\"sku\":\""
        + sku
        + "\",\"quantity\":"
        + quantity
        + ",\"unitPrice\":"
        + unitPrice
        + "}]}";
  }
}
