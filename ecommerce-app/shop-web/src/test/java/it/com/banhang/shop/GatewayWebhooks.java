package it.com.banhang.shop;

import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.path.json.JsonPath;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The processor's webhooks into the shop (docs/payments.md, "Webhooks in"): the sandbox's controls
 * of the events it sends (its endpoint switch, its webhook faults, its resends), deliveries signed
 * here as the processor signs them, and the shop's {@code gateway_event} rows. One kept-alive HTTP
 * client for all of it.
 */
final class GatewayWebhooks {

  /** The development secret the sandbox signs with and the test servers are told (it-parent). */
  static final String SECRET = "whsec_Z2F0ZXdheS1zYW5kYm94LWRldmVsb3BtZW50LXdlYmhvb2stc2VjcmV0";

  /** A well-formed secret the shop does not know: a forger's. */
  static final String OTHER_SECRET = "whsec_b3RoZXItc2VjcmV0LW9mLWEtZm9yZ2VyLTAwMDAw";

  static final String PATH = "/api/v1/gateway/webhooks";

  private static final HttpClient HTTP =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  private GatewayWebhooks() {}

  // ------------------------------------------------------------------ signing and delivering

  /** The {@code webhook-signature} header of {@code body}, signed with {@code secret}. */
  static String sign(String secret, String id, long timestamp, String body) {
    try {
      return new com.standardwebhooks.Webhook(secret).sign(id, timestamp, body);
    } catch (Exception e) {
      throw new IllegalStateException("cannot sign a webhook", e);
    }
  }

  /** A new event id, as the processor's look. */
  static String newEventId() {
    return "evt_" + UUID.randomUUID().toString().replace("-", "");
  }

  /** A charge event's body as the processor sends it (the sandbox's WebhookEvents#payload). */
  static String chargeEvent(
      String eventId,
      String type,
      String chargeId,
      long amount,
      String orderReference,
      String gatewayKey) {
    return "{\"id\":\""
        + eventId
        + "\",\"type\":\""
        + type
        + "\",\"createdAt\":\""
        + Instant.now()
        + "\",\"data\":{\"id\":\""
        + chargeId
        + "\",\"status\":\""
        + (type.equals("charge.failed") ? "failed" : "succeeded")
        + "\",\"amount\":"
        + amount
        + ",\"currency\":\"VND\",\"orderReference\":\""
        + orderReference
        + "\",\"paymentMethod\":\"pm_card_ok\",\"idempotencyKey\":\""
        + gatewayKey
        + "\",\"createdAt\":\""
        + Instant.now()
        + "\"}}";
  }

  /** Delivers {@code body} signed now with the development secret. */
  static HttpResponse<String> deliver(String eventId, String body) {
    long now = Instant.now().getEpochSecond();
    return post(
        Map.of(
            "webhook-id", eventId,
            "webhook-timestamp", Long.toString(now),
            "webhook-signature", sign(SECRET, eventId, now, body)),
        body);
  }

  /** A POST to the shop's endpoint with exactly these headers (and a JSON content type). */
  static HttpResponse<String> post(Map<String, String> headers, String body) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(ShopApi.URL + PATH))
            .timeout(Duration.ofSeconds(30))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    headers.forEach(request::header);
    return send(request.build());
  }

  // ------------------------------------------------------------------ the sandbox

  /** The sandbox sends the event again now; returns the shop's status for that attempt. */
  static int resend(String eventId) {
    HttpResponse<String> answer =
        send(
            HttpRequest.newBuilder(
                    URI.create(Sandbox.URL + "/v1/webhooks/events/" + eventId + "/resend"))
                .POST(HttpRequest.BodyPublishers.noBody())
                .build());
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    List<Integer> statuses = JsonPath.from(answer.body()).getList("attempts.statusCode");
    return statuses.get(statuses.size() - 1);
  }

  /** The charge the gateway holds under a gateway key, as its JSON. */
  static JsonPath chargeUnder(String gatewayKey) {
    HttpResponse<String> answer =
        send(
            HttpRequest.newBuilder(
                    URI.create(Sandbox.URL + "/v1/charges?idempotencyKey=" + gatewayKey))
                .build());
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    return JsonPath.from(answer.body());
  }

  /** The id of the event the sandbox recorded for a charge, created at or after {@code since}. */
  static String eventOfCharge(String chargeId, Instant since) {
    HttpResponse<String> answer =
        send(
            HttpRequest.newBuilder(URI.create(Sandbox.URL + "/v1/webhooks/events?since=" + since))
                .build());
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    List<String> ids =
        JsonPath.from(answer.body())
            .getList("events.findAll { it.chargeId == '" + chargeId + "' }.id");
    assertThat(ids).as("the sandbox's events of charge %s", chargeId).hasSize(1);
    return ids.get(0);
  }

  // ------------------------------------------------------------------ the shop's gateway_event

  /** A column of the event's row in gateway_event, or null when the shop has no such event. */
  static String column(String eventId, String column) {
    return ShopDatabase.text(
        "SELECT " + column + " FROM gateway_event WHERE provider = 'sandbox' AND event_id = ?",
        eventId);
  }

  static long rows(String eventId) {
    return ShopDatabase.count("SELECT COUNT(*) FROM gateway_event WHERE event_id = ?", eventId);
  }

  /** The event's status once processed (no longer PENDING), within {@code within}. */
  static String awaitProcessed(String eventId, Duration within) {
    return await(
        () -> column(eventId, "status"),
        status -> status != null && !status.equals("PENDING"),
        within,
        "event " + eventId + " processed");
  }

  /**
   * Polls {@code value} every 100 ms until {@code done} holds, at most {@code within}; returns the
   * last value, or fails naming {@code what}.
   */
  static <T> T await(Supplier<T> value, Predicate<T> done, Duration within, String what) {
    long deadline = System.nanoTime() + within.toNanos();
    T last = value.get();
    while (!done.test(last)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "not within " + within + ": " + what + " (last seen " + last + ")");
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted while waiting for " + what, e);
      }
      last = value.get();
    }
    return last;
  }

  private static HttpResponse<String> send(HttpRequest request) {
    try {
      return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new IllegalStateException("no answer to " + request.uri(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }
}
