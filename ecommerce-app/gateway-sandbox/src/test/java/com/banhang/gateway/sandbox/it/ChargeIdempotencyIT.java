package com.banhang.gateway.sandbox.it;

import static com.banhang.gateway.sandbox.it.Sandbox.BASE_URI;
import static com.banhang.gateway.sandbox.it.Sandbox.charge;
import static com.banhang.gateway.sandbox.it.Sandbox.chargeBody;
import static com.banhang.gateway.sandbox.it.Sandbox.lookup;
import static com.banhang.gateway.sandbox.it.Sandbox.lookupById;
import static com.banhang.gateway.sandbox.it.Sandbox.stats;
import static com.banhang.gateway.sandbox.it.Sandbox.unique;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.response.Response;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Idempotency against the running sandbox: one charge per key however many requests race, replays
 * of the stored answer, refusal of a reused key, and the lookups the shop reconciles with.
 */
class ChargeIdempotencyIT {

  @AfterEach
  void resetFaults() {
    Sandbox.resetFaults().then().statusCode(200);
  }

  @Test
  void twentyParallelRequestsWithOneKeyMakeExactlyOneCharge() throws Exception {
    String key = unique("parallel");
    String order = unique("order");
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(BASE_URI + "/charges"))
            .header("Idempotency-Key", key)
            .header("Content-Type", "application/json")
            .timeout(Duration.ofSeconds(30))
            .POST(HttpRequest.BodyPublishers.ofString(chargeBody(2_500_000, order, "pm_card_ok")))
            .build();
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      calls.add(client.sendAsync(request, HttpResponse.BodyHandlers.ofString()));
    }
    List<HttpResponse<String>> answers = new ArrayList<>();
    for (CompletableFuture<HttpResponse<String>> call : calls) {
      answers.add(call.get(60, TimeUnit.SECONDS));
    }

    assertThat(answers).extracting(HttpResponse::statusCode).containsOnly(201);
    List<String> ids = answers.stream().map(answer -> json(answer.body()).getString("id")).toList();
    assertThat(ids).hasSize(20).containsOnly(ids.get(0));
    assertThat(
            answers.stream()
                .filter(a -> a.headers().firstValue("Idempotent-Replayed").isEmpty())
                .count())
        .as("exactly one answer created the charge, the others replayed it")
        .isEqualTo(1);
    Response counts = stats(order);
    assertThat(counts.statusCode()).isEqualTo(200);
    assertThat(counts.jsonPath().getString("orderReference")).isEqualTo(order);
    assertThat(counts.jsonPath().getLong("succeededCharges")).isEqualTo(1);
    assertThat(counts.jsonPath().getLong("declinedCharges")).isZero();
  }

  @Test
  void theSameKeyWithAnotherBodyIsRefusedWith422() {
    String key = unique("reuse");
    String order = unique("order");
    assertThat(charge(key, chargeBody(1000, order, "pm_card_ok")).statusCode()).isEqualTo(201);

    Response reused = charge(key, chargeBody(1001, order, "pm_card_ok"));

    assertThat(reused.statusCode()).isEqualTo(422);
    assertThat(reused.jsonPath().getString("error")).isEqualTo("idempotency_key_reused");
    assertThat(reused.header("Idempotent-Replayed")).isNull();
    assertThat(stats(order).jsonPath().getLong("succeededCharges")).isEqualTo(1);
  }

  @Test
  void aDeclineIsStoredAndReplayedWith402() {
    String key = unique("decline");
    String order = unique("order");
    String body = chargeBody(1000, order, "pm_card_declined");

    Response first = charge(key, body);
    Response replay = charge(key, body);

    assertThat(first.statusCode()).isEqualTo(402);
    assertThat(first.jsonPath().getString("status")).isEqualTo("declined");
    assertThat(first.header("Idempotent-Replayed")).isNull();
    assertThat(replay.statusCode()).isEqualTo(402);
    assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
    assertThat(replay.jsonPath().getString("id")).isEqualTo(first.jsonPath().getString("id"));
    assertThat(lookup(key).jsonPath().getString("status")).isEqualTo("declined");
    Response counts = stats(order);
    assertThat(counts.jsonPath().getLong("succeededCharges")).isZero();
    assertThat(counts.jsonPath().getLong("declinedCharges")).isEqualTo(1);
  }

  @Test
  void aSuccessfulChargeHasTheDocumentedShapeAndIsFoundByItsKey() {
    String key = unique("shape");
    String order = unique("order");

    Response created = charge(key, chargeBody(1_250_000, order, "pm_card_ok"));

    assertThat(created.statusCode()).isEqualTo(201);
    assertThat(created.contentType()).startsWith("application/json");
    JsonObject charge = json(created.body().asString());
    assertThat(charge.keySet())
        .containsExactly(
            "id",
            "status",
            "amount",
            "currency",
            "orderReference",
            "paymentMethod",
            "idempotencyKey",
            "createdAt");
    assertThat(charge.getString("id")).startsWith("ch_");
    assertThat(charge.getString("status")).isEqualTo("succeeded");
    assertThat(charge.getJsonNumber("amount").longValueExact()).isEqualTo(1_250_000L);
    assertThat(charge.getString("idempotencyKey")).isEqualTo(key);
    assertThat(java.time.Instant.parse(charge.getString("createdAt"))).isNotNull();
    Response found = lookup(key);
    assertThat(found.statusCode()).isEqualTo(200);
    assertThat(json(found.body().asString())).isEqualTo(charge);
  }

  @Test
  void aKeyWithoutAChargeIsNotFound() {
    Response missing = lookup(unique("never-used"));

    assertThat(missing.statusCode()).isEqualTo(404);
    assertThat(missing.jsonPath().getString("error")).isEqualTo("no_such_charge");
    Response noKey = given().baseUri(BASE_URI).get("/charges");
    assertThat(noKey.statusCode()).isEqualTo(400);
    assertThat(noKey.jsonPath().getString("error")).isEqualTo("idempotency_key_missing");
  }

  @Test
  void aChargeIsFoundByItsIdWithTheShapeOfTheKeyLookupAndAnUnknownIdIsNotFound() {
    String key = unique("by-id");
    String order = unique("order");
    Response created = charge(key, chargeBody(730_000, order, "pm_card_declined"));
    assertThat(created.statusCode()).isEqualTo(402);
    JsonObject charge = json(created.body().asString());

    Response found = lookupById(charge.getString("id"));

    assertThat(found.statusCode()).isEqualTo(200);
    assertThat(found.contentType()).startsWith("application/json");
    JsonObject byId = json(found.body().asString());
    assertThat(byId).isEqualTo(charge).isEqualTo(json(lookup(key).body().asString()));
    assertThat(byId.getString("status")).isEqualTo("declined");
    assertThat(byId.getJsonNumber("amount").longValueExact()).isEqualTo(730_000L);
    assertThat(byId.getString("currency")).isEqualTo("VND");
    assertThat(byId.getString("orderReference")).isEqualTo(order);
    assertThat(byId.getString("idempotencyKey")).isEqualTo(key);

    Response missing = lookupById("ch_" + unique("never"));
    assertThat(missing.statusCode()).isEqualTo(404);
    assertThat(missing.contentType()).startsWith("application/json");
    assertThat(missing.jsonPath().getString("error")).isEqualTo("no_such_charge");
  }

  @Test
  void badKeysAndBadBodiesAre400AndDoNotUseTheKeyUp() {
    String order = unique("order");
    String key = unique("fixable");

    Response noKey =
        given()
            .baseUri(BASE_URI)
            .contentType("application/json")
            .body(chargeBody(1000, order, "pm_card_ok"))
            .post("/charges");
    Response spaceInKey = charge("has space", chargeBody(1000, order, "pm_card_ok"));
    Response longKey = charge("k".repeat(256), chargeBody(1000, order, "pm_card_ok"));
    Response zeroAmount = charge(key, chargeBody(0, order, "pm_card_ok"));
    Response notJson = charge(key, "{\"amount\": ");

    assertThat(noKey.statusCode()).isEqualTo(400);
    assertThat(noKey.jsonPath().getString("error")).isEqualTo("idempotency_key_missing");
    assertThat(spaceInKey.statusCode()).isEqualTo(400);
    assertThat(spaceInKey.jsonPath().getString("error")).isEqualTo("idempotency_key_invalid");
    assertThat(longKey.statusCode()).isEqualTo(400);
    assertThat(zeroAmount.statusCode()).isEqualTo(400);
    assertThat(zeroAmount.jsonPath().getString("error")).isEqualTo("invalid_request");
    assertThat(zeroAmount.jsonPath().getString("message")).contains("amount");
    assertThat(notJson.statusCode()).isEqualTo(400);
    assertThat(charge(key, chargeBody(1000, order, "pm_card_ok")).statusCode())
        .as("the key was not claimed by the invalid requests")
        .isEqualTo(201);
  }

  @Test
  void statsWithoutAnOrderGiveTotalsAndSucceededChargesPerOrder() {
    String order = unique("order");
    charge(unique("total-1"), chargeBody(1000, order, "pm_card_ok")).then().statusCode(201);
    charge(unique("total-2"), chargeBody(1000, order, "pm_card_ok")).then().statusCode(201);

    Response totals = given().baseUri(BASE_URI).get("/stats");

    assertThat(totals.statusCode()).isEqualTo(200);
    assertThat(totals.jsonPath().getLong("succeededCharges")).isGreaterThanOrEqualTo(2);
    assertThat(totals.jsonPath().getLong("declinedCharges")).isGreaterThanOrEqualTo(0);
    assertThat(totals.jsonPath().getLong("byOrderReference.'" + order + "'")).isEqualTo(2);
  }

  @Test
  void unknownPathsAnswerWithTheJsonErrorShape() {
    Response unknown = given().baseUri(BASE_URI).get("/refunds");

    assertThat(unknown.statusCode()).isEqualTo(404);
    assertThat(unknown.jsonPath().getString("error")).isEqualTo("not_found");
  }

  private static JsonObject json(String body) {
    return Json.createReader(new StringReader(body)).readObject();
  }
}
