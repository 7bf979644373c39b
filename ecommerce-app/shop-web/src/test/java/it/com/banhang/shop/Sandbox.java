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
   * Enables or disables the shop's webhook endpoint at the sandbox, as a processor's dashboard does
   * (the suites start with it disabled): charges made while it is disabled record no event.
   */
  public static void webhookEndpoint(boolean enabled) {
    given()
        .baseUri(URL)
        .contentType(ContentType.JSON)
        .body("{\"enabled\":" + enabled + "}")
        .put("/v1/webhooks/endpoint")
        .then()
        .statusCode(200);
  }

  /** Replaces the webhooks' fault settings ({@code PUT /v1/faults/webhooks}). */
  public static void webhookFaults(String json) {
    given()
        .baseUri(URL)
        .contentType(ContentType.JSON)
        .body(json)
        .put("/v1/faults/webhooks")
        .then()
        .statusCode(200);
  }

  /** Webhooks delivered at once, each once, in order again. */
  public static void noWebhookFaults() {
    given().baseUri(URL).delete("/v1/faults/webhooks").then().statusCode(200);
  }

  /**
   * The state ({@code pending}, {@code delivered}, {@code failed}) of every webhook event the
   * sandbox created at or after {@code since}, by event id (paged by creation time).
   */
  public static java.util.Map<String, String> webhookEventStates(java.time.Instant since) {
    java.util.Map<String, String> states = new java.util.LinkedHashMap<>();
    String from = since.toString();
    while (true) {
      io.restassured.path.json.JsonPath page =
          given()
              .baseUri(URL)
              .queryParam("since", from)
              .queryParam("limit", 1000)
              .get("/v1/webhooks/events")
              .then()
              .statusCode(200)
              .extract()
              .jsonPath();
      java.util.List<String> ids = page.getList("events.id", String.class);
      java.util.List<String> stateList = page.getList("events.state", String.class);
      for (int i = 0; i < ids.size(); i++) {
        states.put(ids.get(i), stateList.get(i));
      }
      if (ids.size() < 1000) {
        return states;
      }
      from = page.getList("events.createdAt", String.class).get(ids.size() - 1);
    }
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
