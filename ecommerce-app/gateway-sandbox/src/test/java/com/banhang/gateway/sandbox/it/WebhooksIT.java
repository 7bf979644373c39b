package com.banhang.gateway.sandbox.it;

import static com.banhang.gateway.sandbox.it.Sandbox.BASE_URI;
import static com.banhang.gateway.sandbox.it.Sandbox.charge;
import static com.banhang.gateway.sandbox.it.Sandbox.chargeBody;
import static com.banhang.gateway.sandbox.it.Sandbox.setFaults;
import static com.banhang.gateway.sandbox.it.Sandbox.unique;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import com.banhang.gateway.sandbox.it.WebhookReceiver.Delivery;
import com.standardwebhooks.Webhook;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The sandbox's webhooks against a receiver in this JVM: one signed event per charge, the same id
 * on every retry, duplicate and resend, and the delivery faults. The IT server retries after 0.2 s
 * and 0.4 s, so a test waits a second or two at most; each test uses its own orders and resets both
 * kinds of faults after itself.
 */
class WebhooksIT {

  /** Far above any delivery of the IT server's settings (poll 50 ms, retries 0.2 s and 0.4 s). */
  private static final Duration WAIT = Duration.ofSeconds(10);

  /** How long a test watches for a delivery that must not come. */
  private static final Duration QUIET = Duration.ofMillis(1200);

  private static final List<String> SECRETS =
      Arrays.stream(System.getProperty("webhooks.secrets", "").split(","))
          .map(String::trim)
          .filter(secret -> !secret.isEmpty())
          .toList();

  private static WebhookReceiver receiver;

  @BeforeAll
  static void startReceiver() throws Exception {
    receiver = new WebhookReceiver(Integer.getInteger("webhooks.receiver.port", 9282));
  }

  @AfterAll
  static void stopReceiver() {
    receiver.close();
  }

  @AfterEach
  void resetFaults() {
    Sandbox.resetFaults().then().statusCode(200);
    given().baseUri(BASE_URI).delete("/faults/webhooks").then().statusCode(200);
  }

  private static Response setWebhookFaults(String json) {
    return given()
        .baseUri(BASE_URI)
        .contentType(ContentType.JSON)
        .body(json)
        .put("/faults/webhooks");
  }

  private static Response event(String eventId) {
    return given().baseUri(BASE_URI).pathParam("id", eventId).get("/webhooks/events/{id}");
  }

  /**
   * The event once its delivery is recorded: the sandbox records an attempt after the answer, so a
   * test that saw the delivery arrive waits for the record before it reads or resends.
   */
  private static Response awaitDelivered(String eventId) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    Response recorded = event(eventId);
    while (!"delivered".equals(recorded.jsonPath().getString("state"))
        && System.nanoTime() < deadline) {
      Thread.sleep(20);
      recorded = event(eventId);
    }
    return recorded;
  }

  private static Map<String, List<String>> signedHeaders(Delivery delivery) {
    return Map.of(
            "webhook-id", delivery.header("webhook-id"),
            "webhook-timestamp", delivery.header("webhook-timestamp"),
            "webhook-signature", delivery.header("webhook-signature"))
        .entrySet()
        .stream()
        .collect(Collectors.toMap(Map.Entry::getKey, entry -> List.of(entry.getValue())));
  }

  /** Charges and returns the order reference, whose events the receiver can then be asked for. */
  private static String chargeFor(String paymentMethod, int expectedStatus) {
    String order = unique("order-webhook");
    charge(unique("key-webhook"), chargeBody(1000, order, paymentMethod))
        .then()
        .statusCode(expectedStatus);
    return order;
  }

  @Test
  void everyChargeSendsOneEventOfItsTypeSignedWithEverySecret() throws Exception {
    assertThat(SECRETS).as("the IT server's secrets, from the pom").hasSize(2);
    String key = unique("key-webhook");
    String order = unique("order-webhook");
    Response charged = charge(key, chargeBody(4200, order, "pm_card_ok"));
    charged.then().statusCode(201);
    String declinedOrder = chargeFor("pm_card_declined", 402);

    List<Delivery> succeeded = receiver.await(order, 1, WAIT);
    List<Delivery> failed = receiver.await(declinedOrder, 1, WAIT);
    Thread.sleep(QUIET.toMillis());

    assertThat(receiver.of(order)).as("one delivery per charge").hasSize(1);
    assertThat(receiver.of(declinedOrder)).hasSize(1);
    Delivery delivery = succeeded.get(0);
    JsonObject body = delivery.json();
    assertThat(body.getString("type")).isEqualTo("charge.succeeded");
    assertThat(failed.get(0).json().getString("type")).isEqualTo("charge.failed");
    assertThat(delivery.header("webhook-id")).isEqualTo(body.getString("id")).startsWith("evt_");
    JsonObject data = body.getJsonObject("data");
    assertThat(data.getString("id")).isEqualTo(charged.jsonPath().getString("id"));
    assertThat(data.getString("idempotencyKey")).isEqualTo(key);
    assertThat(data.getJsonNumber("amount").longValueExact()).isEqualTo(4200);
    assertThat(data.getString("currency")).isEqualTo("VND");
    assertThat(data.getString("status")).isEqualTo("succeeded");
    assertThat(delivery.header("webhook-signature").split(" ")).hasSize(2);
    for (String secret : SECRETS) {
      assertThatCode(() -> new Webhook(secret).verify(delivery.body(), signedHeaders(delivery)))
          .as("verified with each secret of the rotation")
          .doesNotThrowAnyException();
    }
    Response recorded = awaitDelivered(body.getString("id"));
    recorded.then().statusCode(200);
    assertThat(recorded.jsonPath().getString("chargeId")).isEqualTo(data.getString("id"));
    assertThat(recorded.jsonPath().getString("state")).isEqualTo("delivered");
    assertThat(recorded.jsonPath().getList("attempts.statusCode")).containsExactly(204);
  }

  @Test
  void aShopThatFailsTwiceGetsTheSameIdUntilItTakesTheEvent() throws Exception {
    String order = unique("order-webhook");
    receiver.answer(order, 500, 500);
    charge(unique("key-webhook"), chargeBody(1000, order, "pm_card_ok")).then().statusCode(201);

    List<Delivery> deliveries = receiver.await(order, 3, WAIT);
    Thread.sleep(QUIET.toMillis());

    assertThat(receiver.of(order)).as("two failures, one success, nothing after").hasSize(3);
    assertThat(deliveries)
        .extracting(delivery -> delivery.header("webhook-id"))
        .containsOnly(deliveries.get(0).json().getString("id"));
    assertThat(deliveries).extracting(Delivery::body).containsOnly(deliveries.get(0).body());
    Response recorded = awaitDelivered(deliveries.get(0).header("webhook-id"));
    assertThat(recorded.jsonPath().getList("attempts.statusCode")).containsExactly(500, 500, 204);
    assertThat(recorded.jsonPath().getList("attempts.kind"))
        .containsExactly("delivery", "delivery", "delivery");
    assertThat(recorded.jsonPath().getString("state")).isEqualTo("delivered");
  }

  @Test
  void aLostDeliveryComesOnTheRetry() throws Exception {
    setWebhookFaults("{\"loseProbability\": 1}").then().statusCode(200);
    String order = chargeFor("pm_card_ok", 201);

    List<Delivery> deliveries = receiver.await(order, 1, WAIT);
    Thread.sleep(QUIET.toMillis());

    assertThat(receiver.of(order)).hasSize(1);
    Response recorded = awaitDelivered(deliveries.get(0).header("webhook-id"));
    assertThat(recorded.jsonPath().getList("attempts.kind")).containsExactly("lost", "delivery");
    assertThat(recorded.jsonPath().getList("attempts.statusCode")).containsExactly(null, 204);
  }

  @Test
  void aDuplicateCarriesTheSameIdAndBody() throws Exception {
    setWebhookFaults("{\"duplicateProbability\": 1}").then().statusCode(200);
    String order = chargeFor("pm_card_ok", 201);

    List<Delivery> deliveries = receiver.await(order, 2, WAIT);
    Thread.sleep(QUIET.toMillis());

    assertThat(receiver.of(order)).hasSize(2);
    assertThat(deliveries.get(1).header("webhook-id"))
        .isEqualTo(deliveries.get(0).header("webhook-id"));
    assertThat(deliveries.get(1).body()).isEqualTo(deliveries.get(0).body());
  }

  @Test
  void aResendDeliversTheSameEventAgain() throws Exception {
    String order = chargeFor("pm_card_declined", 402);
    Delivery first = receiver.await(order, 1, WAIT).get(0);
    String eventId = first.header("webhook-id");
    awaitDelivered(eventId);

    Response resent =
        given().baseUri(BASE_URI).pathParam("id", eventId).post("/webhooks/events/{id}/resend");

    resent.then().statusCode(200);
    assertThat(resent.jsonPath().getList("attempts.kind")).containsExactly("delivery", "resend");
    assertThat(resent.jsonPath().getList("attempts.statusCode")).containsExactly(204, 204);
    List<Delivery> deliveries = receiver.of(order);
    assertThat(deliveries).hasSize(2);
    assertThat(deliveries.get(1).header("webhook-id")).isEqualTo(eventId);
    assertThat(deliveries.get(1).body()).isEqualTo(first.body());
  }

  @Test
  void aResendSinceATimeSendsEveryEventCreatedSince() throws Exception {
    Instant since = Instant.now().minusMillis(5);
    String firstOrder = chargeFor("pm_card_ok", 201);
    String secondOrder = chargeFor("pm_card_declined", 402);
    awaitDelivered(receiver.await(firstOrder, 1, WAIT).get(0).header("webhook-id"));
    awaitDelivered(receiver.await(secondOrder, 1, WAIT).get(0).header("webhook-id"));

    Response queued =
        given().baseUri(BASE_URI).queryParam("since", since.toString()).post("/webhooks/resend");

    queued.then().statusCode(202);
    List<Delivery> first = receiver.await(firstOrder, 2, WAIT);
    List<Delivery> second = receiver.await(secondOrder, 2, WAIT);
    assertThat(first).hasSize(2);
    assertThat(second).hasSize(2);
    assertThat(queued.jsonPath().getList("eventIds", String.class))
        .contains(first.get(0).header("webhook-id"), second.get(0).header("webhook-id"));
    assertThat(first.get(1).header("webhook-id")).isEqualTo(first.get(0).header("webhook-id"));
  }

  @Test
  void anEarlyEventArrivesBeforeTheChargeCallAnswers() throws Exception {
    setFaults("{\"latencyMs\": 1000, \"latencyPhase\": \"AFTER_CHARGE\"}").then().statusCode(200);
    // A 5 s delay that only the early delivery skips: were it not early, the event would come after
    // the answer, and this test would fail, however fast the scheduled runs are.
    setWebhookFaults(
            "{\"earlyProbability\": 1, \"delayProbability\": 1, \"delayMinMs\": 5000,"
                + " \"delayMaxMs\": 5000}")
        .then()
        .statusCode(200);
    String order = unique("order-webhook");

    Response charged = charge(unique("key-webhook"), chargeBody(1000, order, "pm_card_ok"));
    Instant answered = Instant.now();

    charged.then().statusCode(201);
    List<Delivery> deliveries = receiver.of(order);
    assertThat(deliveries).as("delivered while the charge call was still running").hasSize(1);
    assertThat(deliveries.get(0).receivedAt()).isBefore(answered);
  }

  @Test
  void aHeldBackEventArrivesAfterALaterOne() throws Exception {
    setWebhookFaults("{\"reorderProbability\": 1, \"reorderMaxHoldMs\": 30000}")
        .then()
        .statusCode(200);
    String heldOrder = chargeFor("pm_card_ok", 201);
    setWebhookFaults("{\"reorderProbability\": 0}").then().statusCode(200);
    String laterOrder = chargeFor("pm_card_ok", 201);

    Delivery later = receiver.await(laterOrder, 1, WAIT).get(0);
    List<Delivery> held = receiver.await(heldOrder, 1, WAIT);

    assertThat(held).as("released by the later event, long before its 30 s hold").hasSize(1);
    assertThat(held.get(0).receivedAt()).isAfter(later.receivedAt());
  }

  @Test
  void aDelayedEventWaitsItsDelay() throws Exception {
    setWebhookFaults("{\"delayProbability\": 1, \"delayMinMs\": 1500, \"delayMaxMs\": 1500}")
        .then()
        .statusCode(200);
    String order = unique("order-webhook");
    Response charged = charge(unique("key-webhook"), chargeBody(1000, order, "pm_card_ok"));
    charged.then().statusCode(201);
    Instant createdAt = Instant.parse(charged.jsonPath().getString("createdAt"));

    List<Delivery> deliveries = receiver.await(order, 1, WAIT);

    assertThat(deliveries).hasSize(1);
    assertThat(Duration.between(createdAt, deliveries.get(0).receivedAt()))
        .isGreaterThanOrEqualTo(Duration.ofMillis(1500));
  }

  private static Response setEndpoint(String json) {
    return given()
        .baseUri(BASE_URI)
        .contentType(ContentType.JSON)
        .body(json)
        .put("/webhooks/endpoint");
  }

  @Test
  void aChargeMadeWhileTheEndpointIsDisabled_recordsNoEvent_andTheNextOneAfterEnablingDoes()
      throws Exception {
    String whileDisabled;
    try {
      setEndpoint("{\"enabled\": false}").then().statusCode(200);
      assertThat(
              given().baseUri(BASE_URI).get("/webhooks/endpoint").jsonPath().getBoolean("enabled"))
          .isFalse();
      whileDisabled = chargeFor("pm_card_ok", 201);
    } finally {
      setEndpoint("{\"enabled\": true}").then().statusCode(200);
    }
    String afterwards = chargeFor("pm_card_ok", 201);

    receiver.await(afterwards, 1, WAIT);
    Thread.sleep(QUIET.toMillis());
    assertThat(receiver.of(whileDisabled)).as("no event, not even later").isEmpty();
    assertThat(receiver.of(afterwards)).hasSize(1);
    for (String bad : List.of("{}", "{\"enabled\": \"yes\"}", "[true]", "")) {
      Response refused = setEndpoint(bad);
      refused.then().statusCode(400);
      assertThat(refused.jsonPath().getString("error")).isEqualTo("invalid_request");
    }
    assertThat(given().baseUri(BASE_URI).get("/webhooks/endpoint").jsonPath().getBoolean("enabled"))
        .as("a refused change changes nothing")
        .isTrue();
  }

  @Test
  void theListingShowsEventsWithTheirAttempts() throws Exception {
    Instant since = Instant.now().minusMillis(5);
    String order = chargeFor("pm_card_ok", 201);
    String eventId = receiver.await(order, 1, WAIT).get(0).header("webhook-id");

    Response listed =
        given().baseUri(BASE_URI).queryParam("since", since.toString()).get("/webhooks/events");

    listed.then().statusCode(200);
    assertThat(listed.jsonPath().getBoolean("enabled")).isTrue();
    assertThat(listed.jsonPath().getList("events.id")).contains(eventId);
  }

  @Test
  void badInputGetsAClearRefusalAndChangesNothing() {
    Response before = given().baseUri(BASE_URI).get("/faults/webhooks");

    Response badFaults = setWebhookFaults("{\"loseProbability\": 2}");
    badFaults.then().statusCode(400);
    assertThat(badFaults.jsonPath().getString("error")).isEqualTo("invalid_faults");
    assertThat(badFaults.jsonPath().getString("message")).startsWith("loseProbability:");
    setWebhookFaults("{\"nonsense\": 1}").then().statusCode(400);
    setWebhookFaults("[1]").then().statusCode(400);
    assertThat(given().baseUri(BASE_URI).get("/faults/webhooks").asString())
        .isEqualTo(before.asString());

    Response unknown = event("evt_does_not_exist");
    unknown.then().statusCode(404);
    assertThat(unknown.jsonPath().getString("error")).isEqualTo("no_such_event");
    given()
        .baseUri(BASE_URI)
        .post("/webhooks/events/evt_does_not_exist/resend")
        .then()
        .statusCode(404);
    for (String since : List.of("yesterday", "2026-13-01T00:00:00Z", "")) {
      Response refused =
          given().baseUri(BASE_URI).queryParam("since", since).post("/webhooks/resend");
      refused.then().statusCode(400);
      assertThat(refused.jsonPath().getString("error")).isEqualTo("invalid_request");
    }
    given().baseUri(BASE_URI).post("/webhooks/resend").then().statusCode(400);
    for (String limit : List.of("0", "1001", "ten")) {
      given()
          .baseUri(BASE_URI)
          .queryParam("limit", limit)
          .get("/webhooks/events")
          .then()
          .statusCode(400);
    }
  }
}
