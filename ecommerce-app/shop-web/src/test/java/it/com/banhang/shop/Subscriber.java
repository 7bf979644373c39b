package it.com.banhang.shop;

import static io.restassured.RestAssured.given;

import io.restassured.path.json.JsonPath;
import java.util.List;
import java.util.Map;

/**
 * The sample subscriber of the shop's webhooks (ecommerce-app/sample-subscriber), which the build
 * runs in the sandbox's server: what it handled, once per event, and every delivery it was sent.
 */
public final class Subscriber {

  public static final String URL =
      System.getProperty("subscriber.url", "http://localhost:9080/subscriber");

  private Subscriber() {}

  /** The events it handled about {@code subject} (an order's id), in the order it handled them. */
  public static List<Map<String, Object>> eventsAbout(String subject) {
    return given()
        .baseUri(URL)
        .queryParam("subject", subject)
        .get("/events")
        .jsonPath()
        .getList("");
  }

  /** Every event of {@code type} it handled. */
  public static JsonPath eventsOfType(String type) {
    return given().baseUri(URL).queryParam("type", type).get("/events").jsonPath();
  }

  /** Every delivery of the event {@code webhookId}, with what it answered, in arrival order. */
  public static List<Map<String, Object>> deliveries(String webhookId) {
    return given()
        .baseUri(URL)
        .queryParam("webhookId", webhookId)
        .get("/deliveries")
        .jsonPath()
        .getList("");
  }

  /**
   * Answers the next {@code count} deliveries whose body contains {@code matching} with {@code
   * status}.
   */
  public static void failNext(int count, int status, String matching) {
    given()
        .baseUri(URL)
        .queryParam("count", count)
        .queryParam("status", status)
        .queryParam("matching", matching)
        .post("/faults")
        .then()
        .statusCode(204);
  }
}
