package it.com.banhang.shop;

import static io.restassured.RestAssured.given;

import io.restassured.http.ContentType;

/** The gateway sandbox the shop under test talks to: its faults and its ground-truth counts. */
public final class Sandbox {

  public static final String URL =
      System.getProperty("gateway.url", "http://localhost:9080/gateway");

  private Sandbox() {}

  /** Replaces the fault settings; members left out take their defaults. */
  public static void faults(String json) {
    given()
        .baseUri(URL)
        .contentType(ContentType.JSON)
        .body(json)
        .put("/v1/faults")
        .then()
        .statusCode(200);
  }

  public static void noFaults() {
    given().baseUri(URL).delete("/v1/faults").then().statusCode(200);
  }

  /**
   * Creates a charge directly at the gateway, under any key and with any body, as anyone who can
   * reach the processor's API could.
   */
  public static io.restassured.response.Response charge(
      String gatewayKey, long amount, String orderReference) {
    return given()
        .baseUri(URL)
        .contentType(ContentType.JSON)
        .header("Idempotency-Key", gatewayKey)
        .body(
            "{\"amount\":"
                + amount
                + ",\"currency\":\"VND\",\"orderReference\":\""
                + orderReference
                + "\",\"paymentMethod\":\"pm_card_ok\"}")
        .post("/v1/charges");
  }

  /** Succeeded charges of one order: the number of times the customer paid. */
  public static long charges(String orderId) {
    return given()
        .baseUri(URL)
        .queryParam("orderReference", orderId)
        .get("/v1/stats")
        .then()
        .statusCode(200)
        .extract()
        .<Number>path("succeededCharges")
        .longValue();
  }
}
