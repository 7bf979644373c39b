package com.banhang.gateway.sandbox.it;

import static com.banhang.gateway.sandbox.it.Sandbox.BASE_URI;
import static com.banhang.gateway.sandbox.it.Sandbox.charge;
import static com.banhang.gateway.sandbox.it.Sandbox.chargeBody;
import static com.banhang.gateway.sandbox.it.Sandbox.lookup;
import static com.banhang.gateway.sandbox.it.Sandbox.setFaults;
import static com.banhang.gateway.sandbox.it.Sandbox.stats;
import static com.banhang.gateway.sandbox.it.Sandbox.unique;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.restassured.response.Response;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.client.Client;
import jakarta.ws.rs.client.ClientBuilder;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.core.MediaType;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Injected faults against the running sandbox. Each test sets the faults it needs and they are
 * reset after it.
 */
class FaultInjectionIT {

  /** Far above any answer of a healthy sandbox: a client that waits this long was left hanging. */
  private static final Duration CLIENT_TIMEOUT = Duration.ofSeconds(20);

  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  @AfterEach
  void resetFaults() {
    Sandbox.resetFaults().then().statusCode(200);
  }

  @Test
  void aResponseLostAsGatewayTimeoutStillLeavesExactlyOneCharge() {
    String key = unique("drop-504");
    String order = unique("order");
    String body = chargeBody(1000, order, "pm_card_ok");
    setFaults("{\"dropResponseProbability\": 1}").then().statusCode(200);

    Response lost = charge(key, body);

    assertThat(lost.statusCode()).isEqualTo(504);
    assertThat(lost.body().asString()).isEmpty();
    Response found = lookup(key);
    assertThat(found.statusCode()).isEqualTo(200);
    assertThat(found.jsonPath().getString("status")).isEqualTo("succeeded");
    assertThat(stats(order).jsonPath().getLong("succeededCharges")).isEqualTo(1);

    // A retry under the same key is a replay, even while the fault is still on: never a second
    // charge.
    Response retry = charge(key, body);
    assertThat(retry.statusCode()).isEqualTo(201);
    assertThat(retry.header("Idempotent-Replayed")).isEqualTo("true");
    assertThat(retry.jsonPath().getString("id")).isEqualTo(found.jsonPath().getString("id"));
    assertThat(stats(order).jsonPath().getLong("succeededCharges")).isEqualTo(1);
  }

  @Test
  void aResponseLostByResetGivesAJaxRsClientATransportErrorButTheChargeExists() {
    String key = unique("drop-reset-jaxrs");
    String order = unique("order");
    setFaults("{\"dropResponseProbability\": 1, \"dropMode\": \"RESET\"}").then().statusCode(200);
    Client client =
        ClientBuilder.newBuilder()
            .connectTimeout(5, TimeUnit.SECONDS)
            .readTimeout(CLIENT_TIMEOUT.toSeconds(), TimeUnit.SECONDS)
            .build();
    long started = System.nanoTime();
    Throwable failure;
    try {
      failure =
          catchThrowable(
              () ->
                  client
                      .target(BASE_URI)
                      .path("charges")
                      .request()
                      .header("Idempotency-Key", key)
                      .post(
                          Entity.entity(
                              chargeBody(1000, order, "pm_card_ok"),
                              MediaType.APPLICATION_JSON_TYPE),
                          String.class));
    } finally {
      client.close();
    }

    assertThat(failure).isInstanceOf(ProcessingException.class);
    assertThat(failure)
        .rootCause()
        .isInstanceOf(IOException.class)
        .isNotInstanceOf(SocketTimeoutException.class);
    assertThat(Duration.ofNanos(System.nanoTime() - started))
        .as("broken at once, not left hanging")
        .isLessThan(CLIENT_TIMEOUT.dividedBy(2));
    assertChargedOnce(key, order);
  }

  @Test
  void aResponseLostByResetGivesTheJdkClientATransportErrorButTheChargeExists() {
    String key = unique("drop-reset-jdk");
    String order = unique("order");
    setFaults("{\"dropResponseProbability\": 1, \"dropMode\": \"RESET\"}").then().statusCode(200);

    Throwable failure =
        catchThrowable(
            () ->
                http.send(
                    post(key, chargeBody(1000, order, "pm_card_ok")),
                    HttpResponse.BodyHandlers.ofString()));

    assertThat(failure).isInstanceOf(IOException.class).isNotInstanceOf(HttpTimeoutException.class);
    assertChargedOnce(key, order);
  }

  @Test
  void anErrorBeforeTheChargeIs503AndChargesNothing() throws Exception {
    String key = unique("error-before");
    String order = unique("order");
    String body = chargeBody(1000, order, "pm_card_ok");
    setFaults("{\"errorBeforeChargeProbability\": 1}").then().statusCode(200);

    Response failed = charge(key, body);

    assertThat(failed.statusCode()).isEqualTo(503);
    assertThat(failed.jsonPath().getString("error")).isEqualTo("processor_unavailable");
    assertThat(lookup(key).statusCode()).isEqualTo(404);
    assertThat(stats(order).jsonPath().getLong("succeededCharges")).isZero();
    assertThat(stats(order).jsonPath().getLong("declinedCharges")).isZero();

    Sandbox.resetFaults().then().statusCode(200);
    Response retry = charge(key, body);
    assertThat(retry.statusCode()).as("the key is still free").isEqualTo(201);
    assertThat(retry.header("Idempotent-Replayed")).isNull();
  }

  @Test
  void aLostRequestChargesNothingInEitherModeAndTheKeyChargesOnceWhenTheFaultsAreReset() {
    String key = unique("lost-request");
    String order = unique("order");
    String body = chargeBody(1000, order, "pm_card_ok");
    Response set = setFaults("{\"loseRequestProbability\": 1}");
    set.then().statusCode(200);
    assertThat(set.jsonPath().getDouble("loseRequestProbability")).isEqualTo(1.0);
    assertThat(set.jsonPath().getString("dropMode")).isEqualTo("GATEWAY_TIMEOUT");

    Response lost = charge(key, body);

    assertThat(lost.statusCode()).as("the same answer as a lost response").isEqualTo(504);
    assertThat(lost.body().asString()).isEmpty();
    assertNothingCharged(key, order);

    setFaults("{\"loseRequestProbability\": 1, \"dropMode\": \"RESET\"}").then().statusCode(200);
    Throwable broken =
        catchThrowable(() -> http.send(post(key, body), HttpResponse.BodyHandlers.ofString()));

    assertThat(broken).isInstanceOf(IOException.class).isNotInstanceOf(HttpTimeoutException.class);
    assertNothingCharged(key, order);

    Sandbox.resetFaults().then().statusCode(200);
    Response charged = charge(key, body);

    assertThat(charged.statusCode()).as("the key was never used up").isEqualTo(201);
    assertThat(charged.header("Idempotent-Replayed")).isNull();
    assertThat(lookup(key).jsonPath().getString("id"))
        .isEqualTo(charged.jsonPath().getString("id"));
    assertChargedOnce(key, order);
  }

  @Test
  void withLatencyAfterTheChargeTheChargeIsVisibleBeforeTheResponseArrives() throws Exception {
    String key = unique("late");
    String order = unique("order");
    setFaults("{\"latencyMs\": 800, \"latencyPhase\": \"AFTER_CHARGE\"}").then().statusCode(200);
    long started = System.nanoTime();

    CompletableFuture<HttpResponse<String>> call =
        http.sendAsync(
            post(key, chargeBody(1000, order, "pm_card_ok")), HttpResponse.BodyHandlers.ofString());
    Response found = pollLookupUntilFound(key, Duration.ofSeconds(10));
    boolean answeredBeforeLookupFound = call.isDone();
    HttpResponse<String> answer = call.get(30, TimeUnit.SECONDS);
    Duration elapsed = Duration.ofNanos(System.nanoTime() - started);

    assertThat(found.statusCode()).isEqualTo(200);
    assertThat(answeredBeforeLookupFound)
        .as("the charge was visible while the response still waited")
        .isFalse();
    assertThat(answer.statusCode()).isEqualTo(201);
    assertThat(answer.body()).contains(found.jsonPath().getString("id"));
    assertThat(elapsed).isGreaterThanOrEqualTo(Duration.ofMillis(800));
  }

  @Test
  void withLatencyBeforeTheChargeNothingIsChargedWhileTheRequestWaits() throws Exception {
    String key = unique("early");
    String order = unique("order");
    setFaults("{\"latencyMs\": 1500, \"latencyPhase\": \"BEFORE_CHARGE\"}").then().statusCode(200);
    long started = System.nanoTime();

    CompletableFuture<HttpResponse<String>> call =
        http.sendAsync(
            post(key, chargeBody(1000, order, "pm_card_ok")), HttpResponse.BodyHandlers.ofString());
    List<Integer> earlyLookups = new ArrayList<>();
    // Well inside the 1.5 s wait, measured from before the request left: the charge cannot exist
    // yet.
    while (Duration.ofNanos(System.nanoTime() - started).compareTo(Duration.ofMillis(700)) < 0) {
      earlyLookups.add(lookup(key).statusCode());
      Thread.sleep(50);
    }
    HttpResponse<String> answer = call.get(30, TimeUnit.SECONDS);

    assertThat(earlyLookups).isNotEmpty().containsOnly(404);
    assertThat(answer.statusCode()).isEqualTo(201);
    assertThat(lookup(key).statusCode()).isEqualTo(200);
  }

  @Test
  void aReplayIgnoresEveryFaultButLatency() {
    String key = unique("replay");
    String order = unique("order");
    String body = chargeBody(1000, order, "pm_card_ok");
    String id = charge(key, body).then().statusCode(201).extract().path("id");
    setFaults("{\"dropResponseProbability\": 1, \"errorBeforeChargeProbability\": 1}")
        .then()
        .statusCode(200);

    Response replay = charge(key, body);

    assertThat(replay.statusCode()).isEqualTo(201);
    assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
    assertThat(replay.jsonPath().getString("id")).isEqualTo(id);
  }

  @Test
  void withFaultsOnReplaysEveryAnswerForTheKeyIsLostAndOnlyTheLookupTellsTheOutcome() {
    String key = unique("replay-lost-504");
    String order = unique("order");
    String body = chargeBody(1000, order, "pm_card_ok");
    Response set = setFaults("{\"dropResponseProbability\": 1, \"faultsOnReplays\": true}");
    set.then().statusCode(200);
    assertThat(set.jsonPath().getBoolean("faultsOnReplays")).isTrue();

    Response first = charge(key, body);
    Response retry = charge(key, body);

    assertThat(first.statusCode()).isEqualTo(504);
    assertThat(first.body().asString()).isEmpty();
    assertThat(retry.statusCode())
        .as("the retry is a replay, and its answer is lost too")
        .isEqualTo(504);
    assertThat(retry.body().asString()).isEmpty();
    assertThat(retry.header("Idempotent-Replayed")).isNull();
    assertChargedOnce(key, order);

    // faultsOnReplays left out takes its default, false: the same retry is answered with the stored
    // charge.
    setFaults("{\"dropResponseProbability\": 1}").then().statusCode(200);
    Response answered = charge(key, body);
    assertThat(answered.statusCode()).isEqualTo(201);
    assertThat(answered.header("Idempotent-Replayed")).isEqualTo("true");
    assertThat(answered.jsonPath().getString("id"))
        .isEqualTo(lookup(key).jsonPath().getString("id"));
    assertThat(stats(order).jsonPath().getLong("succeededCharges")).isEqualTo(1);
  }

  @Test
  void withFaultsOnReplaysEveryAnswerForTheKeyBreaksTheConnectionInResetMode() {
    String key = unique("replay-lost-reset");
    String order = unique("order");
    String body = chargeBody(1000, order, "pm_card_ok");
    setFaults(
            "{\"dropResponseProbability\": 1, \"dropMode\": \"RESET\", \"faultsOnReplays\": true}")
        .then()
        .statusCode(200);

    Throwable first =
        catchThrowable(() -> http.send(post(key, body), HttpResponse.BodyHandlers.ofString()));
    Throwable retry =
        catchThrowable(() -> http.send(post(key, body), HttpResponse.BodyHandlers.ofString()));

    assertThat(first).isInstanceOf(IOException.class).isNotInstanceOf(HttpTimeoutException.class);
    assertThat(retry).isInstanceOf(IOException.class).isNotInstanceOf(HttpTimeoutException.class);
    assertChargedOnce(key, order);
  }

  @Test
  void withFaultsOnReplaysAReplayCanFailBeforeTheChargeAndChangesNothing() {
    String key = unique("replay-503");
    String order = unique("order");
    String body = chargeBody(1000, order, "pm_card_ok");
    String id = charge(key, body).then().statusCode(201).extract().path("id");
    setFaults("{\"errorBeforeChargeProbability\": 1, \"faultsOnReplays\": true}")
        .then()
        .statusCode(200);

    Response replay = charge(key, body);

    assertThat(replay.statusCode()).isEqualTo(503);
    assertThat(replay.jsonPath().getString("error")).isEqualTo("processor_unavailable");
    assertThat(lookup(key).jsonPath().getString("id")).isEqualTo(id);
    assertChargedOnce(key, order);
  }

  @Test
  void theSameSeedRepeatsTheSameFaultsOverHttp() {
    String faults = "{\"errorBeforeChargeProbability\": 0.5, \"seed\": 2024}";

    setFaults(faults).then().statusCode(200);
    List<Integer> firstRun = chargeNewKeys(12);
    setFaults(faults).then().statusCode(200);
    List<Integer> secondRun = chargeNewKeys(12);

    assertThat(firstRun).containsOnly(201, 503).contains(201, 503);
    assertThat(secondRun).isEqualTo(firstRun);
  }

  @Test
  void faultSettingsCanBeReadReplacedAndReset() {
    Response replaced =
        setFaults("{\"latencyMs\": 5, \"slowProbability\": 0.25, \"dropMode\": \"RESET\"}");

    assertThat(replaced.statusCode()).isEqualTo(200);
    Response current = given().baseUri(BASE_URI).get("/faults");
    assertThat(current.jsonPath().getLong("latencyMs")).isEqualTo(5);
    assertThat(current.jsonPath().getDouble("slowProbability")).isEqualTo(0.25);
    assertThat(current.jsonPath().getString("dropMode")).isEqualTo("RESET");
    assertThat(current.jsonPath().getLong("slowLatencyMs"))
        .as("left out: the default")
        .isEqualTo(1000);
    assertThat(current.jsonPath().getString("latencyPhase")).isEqualTo("AFTER_CHARGE");
    assertThat(current.jsonPath().getLong("seed")).isEqualTo(42);
    assertThat(current.jsonPath().getBoolean("faultsOnReplays")).isFalse();
    assertThat(current.jsonPath().getDouble("loseRequestProbability")).isZero();
    assertThat(setFaults("{\"faultsOnReplays\": true}").jsonPath().getBoolean("faultsOnReplays"))
        .isTrue();

    Response reset = Sandbox.resetFaults();
    assertThat(reset.statusCode()).isEqualTo(200);
    assertThat(reset.jsonPath().getLong("latencyMs")).isZero();
    assertThat(reset.jsonPath().getString("dropMode")).isEqualTo("GATEWAY_TIMEOUT");
    assertThat(reset.jsonPath().getBoolean("faultsOnReplays")).isFalse();
  }

  @Test
  void invalidFaultSettingsAreRefusedAndChangeNothing() {
    Response typo = setFaults("{\"latencyMS\": 100}");
    Response outOfRange = setFaults("{\"dropResponseProbability\": 2}");
    Response notABoolean = setFaults("{\"faultsOnReplays\": \"true\"}");
    Response loseOutOfRange = setFaults("{\"loseRequestProbability\": 1.5}");

    assertThat(typo.statusCode()).isEqualTo(400);
    assertThat(typo.jsonPath().getString("error")).isEqualTo("invalid_faults");
    assertThat(outOfRange.statusCode()).isEqualTo(400);
    assertThat(notABoolean.statusCode()).isEqualTo(400);
    assertThat(notABoolean.jsonPath().getString("error")).isEqualTo("invalid_faults");
    assertThat(loseOutOfRange.statusCode()).isEqualTo(400);
    assertThat(loseOutOfRange.jsonPath().getString("error")).isEqualTo("invalid_faults");
    assertThat(
            given().baseUri(BASE_URI).get("/faults").jsonPath().getDouble("loseRequestProbability"))
        .isZero();
    assertThat(given().baseUri(BASE_URI).get("/faults").jsonPath().getBoolean("faultsOnReplays"))
        .isFalse();
    assertThat(
            given()
                .baseUri(BASE_URI)
                .get("/faults")
                .jsonPath()
                .getDouble("dropResponseProbability"))
        .isZero();
  }

  private List<Integer> chargeNewKeys(int count) {
    List<Integer> statuses = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      statuses.add(
          charge(unique("seeded"), chargeBody(1000, unique("order"), "pm_card_ok")).statusCode());
    }
    return statuses;
  }

  private static HttpRequest post(String key, String body) {
    return HttpRequest.newBuilder(URI.create(BASE_URI + "/charges"))
        .header("Idempotency-Key", key)
        .header("Content-Type", "application/json")
        .timeout(CLIENT_TIMEOUT)
        .POST(HttpRequest.BodyPublishers.ofString(body))
        .build();
  }

  private static Response pollLookupUntilFound(String key, Duration limit)
      throws InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    Response response = lookup(key);
    while (response.statusCode() == 404 && System.nanoTime() < deadline) {
      Thread.sleep(25);
      response = lookup(key);
    }
    return response;
  }

  private static void assertNothingCharged(String key, String order) {
    Response found = lookup(key);
    assertThat(found.statusCode()).as("the request never reached the processor").isEqualTo(404);
    assertThat(found.jsonPath().getString("error")).isEqualTo("no_such_charge");
    assertThat(stats(order).jsonPath().getLong("succeededCharges")).isZero();
    assertThat(stats(order).jsonPath().getLong("declinedCharges")).isZero();
  }

  private static void assertChargedOnce(String key, String order) {
    Response found = lookup(key);
    assertThat(found.statusCode())
        .as("the charge was committed before the response was lost")
        .isEqualTo(200);
    assertThat(found.jsonPath().getString("orderReference")).isEqualTo(order);
    assertThat(stats(order).jsonPath().getLong("succeededCharges")).isEqualTo(1);
  }
}
