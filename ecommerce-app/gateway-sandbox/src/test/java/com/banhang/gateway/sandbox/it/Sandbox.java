package com.banhang.gateway.sandbox.it;

import static io.restassured.RestAssured.given;

import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.util.UUID;

/**
 * Calls to the sandbox the integration tests run against ({@code gateway.base-uri}, set by
 * failsafe).
 */
final class Sandbox {

  static final String BASE_URI =
      System.getProperty("gateway.base-uri", "http://localhost:9281/gateway/v1");

  private Sandbox() {}

  /** A key and an order reference no other test uses, so tests need no reset of the database. */
  static String unique(String prefix) {
    return prefix + "-" + UUID.randomUUID();
  }

  static String chargeBody(long amount, String orderReference, String paymentMethod) {
    return "{\"amount\":"
        + amount
        + ",\"currency\":\"VND\",\"orderReference\":\""
        + orderReference
        + "\",\"paymentMethod\":\""
        + paymentMethod
        + "\"}";
  }

  static Response charge(String key, String body) {
    return given()
        .baseUri(BASE_URI)
        .header("Idempotency-Key", key)
        .contentType(ContentType.JSON)
        .body(body)
        .post("/charges");
  }

  static Response lookup(String key) {
    return given().baseUri(BASE_URI).queryParam("idempotencyKey", key).get("/charges");
  }

  static Response lookupById(String chargeId) {
    return given().baseUri(BASE_URI).pathParam("id", chargeId).get("/charges/{id}");
  }

  static Response stats(String orderReference) {
    return given().baseUri(BASE_URI).queryParam("orderReference", orderReference).get("/stats");
  }

  static Response setFaults(String json) {
    return given().baseUri(BASE_URI).contentType(ContentType.JSON).body(json).put("/faults");
  }

  static Response resetFaults() {
    return given().baseUri(BASE_URI).delete("/faults");
  }
}
