package it.com.banhang.shop;

import static it.com.banhang.shop.Payments.TOTAL;
import static it.com.banhang.shop.Payments.newOrder;
import static it.com.banhang.shop.ShopApi.newKey;
import static it.com.banhang.shop.ShopApi.newSku;
import static it.com.banhang.shop.ShopApi.orderBody;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every answer to a request whose key was parsed states when the key expires (header {@code
 * Idempotency-Key-Expires}, an IMF-fixdate), also the refusals; idempotency problems also name the
 * operation and the expiry in the body (docs/idempotency.md, "Expiry"). A key that a row binds
 * states the row's expiry; one that no row binds, the expiry a claim made now would get (the
 * operation's TTL from now). The 429 case is in {@link NewKeyRateLimitIT}.
 */
@SameOnEveryDatabase
class KeyExpiryIT {

  /** Tolerance for "the TTL from now": the request's own duration and clock granularity. */
  private static final Duration SLACK = Duration.ofMinutes(1);

  private static final String IMF_FIXDATE =
      "(Mon|Tue|Wed|Thu|Fri|Sat|Sun), [0-9]{2} [A-Z][a-z]{2} [0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT";

  /** The two keyed operations of the shop, each with its own TTL. */
  enum Operation {
    ORDERS("orders.create", Duration.ofHours(24)) {
      @Override
      Response send(String key, String body) {
        return ShopApi.createOrder("alice", key, body);
      }

      @Override
      String validBody() {
        return orderBody(newSku(), 1, 1);
      }

      @Override
      String invalidBody() {
        return orderBody(newSku(), 0, 1);
      }
    },
    PAYMENTS("payments.charge", Duration.ofDays(7)) {
      private String orderId;

      @Override
      Response send(String key, String body) {
        if (orderId == null) {
          orderId = newOrder("alice");
        }
        return ShopApi.as("alice")
            .contentType(ContentType.JSON)
            .header("Idempotency-Key", key)
            .body(body)
            .post("/api/v1/orders/" + orderId + "/payments");
      }

      @Override
      String validBody() {
        // Declined: a final answer that is stored, and the order stays payable for the next test.
        return "{\"amount\":"
            + TOTAL
            + ",\"currency\":\"VND\",\"paymentMethod\":\"pm_card_declined\"}";
      }

      @Override
      String invalidBody() {
        return "{\"amount\":0,\"currency\":\"VND\",\"paymentMethod\":\"pm_card_ok\"}";
      }
    };

    final String name;
    final Duration ttl;

    Operation(String name, Duration ttl) {
      this.name = name;
      this.ttl = ttl;
    }

    abstract Response send(String key, String body);

    abstract String validBody();

    abstract String invalidBody();
  }

  @ParameterizedTest
  @EnumSource(Operation.class)
  void invalidBody_400_statesTheExpiryAClaimMadeNowWouldGet(Operation operation) {
    String key = newKey();
    Instant before = Instant.now();

    Response invalid = operation.send(key, operation.invalidBody());

    assertThat(invalid.statusCode()).as(invalid.asString()).isEqualTo(400);
    assertThat(expiryHeader(invalid))
        .isBetween(
            before.plus(operation.ttl).minus(SLACK), Instant.now().plus(operation.ttl).plus(SLACK));
    assertThat(ShopDatabase.rows("alice", operation.name, key)).isZero();
  }

  @ParameterizedTest
  @EnumSource(Operation.class)
  void tooLargeBody_413_namesOperationAndExpiry(Operation operation) {
    String key = newKey();
    Instant before = Instant.now();

    Response tooLarge = operation.send(key, "{\"padding\":\"" + "x".repeat(70_000) + "\"}");

    assertThat(tooLarge.statusCode()).isEqualTo(413);
    assertThat((String) tooLarge.path("type")).endsWith("#request-body-too-large");
    Instant expiresAt = assertProblemStatesExpiry(tooLarge, operation);
    assertThat(expiresAt)
        .isBetween(
            before.plus(operation.ttl).minus(SLACK), Instant.now().plus(operation.ttl).plus(SLACK));
    assertThat(ShopDatabase.rows("alice", operation.name, key)).isZero();
  }

  @ParameterizedTest
  @EnumSource(Operation.class)
  void reusedKey_422_andInvalidBodyUnderAHeldKey_stateTheRowsExpiry(Operation operation) {
    String key = newKey();
    Response first = operation.send(key, operation.validBody());
    assertThat(first.statusCode()).as(first.asString()).isIn(201, 402);
    Instant stored = ShopDatabase.expireIn("alice", operation.name, key, Duration.ofHours(1));

    Response reused = operation.send(key, operation.validBody().replace("\"VND\"", "\"USD\""));

    assertThat(reused.statusCode()).isEqualTo(422);
    assertThat((String) reused.path("type")).endsWith("#idempotency-key-reused");
    assertThat(assertProblemStatesExpiry(reused, operation)).isEqualTo(stored);

    // While the key is held by a running attempt, an invalid body is refused by validation (no
    // claim), with the row's expiry. Made to look running for this one request, then put back.
    String where = " WHERE tenant_id = 'alice' AND operation = ? AND idempotency_key = ?";
    ShopDatabase.update(
        "UPDATE idempotency_record SET status = 'PROCESSING', locked_until = ?" + where,
        java.time.OffsetDateTime.now(java.time.ZoneOffset.UTC).plusHours(1),
        operation.name,
        key);
    Response invalid;
    try {
      invalid = operation.send(key, operation.invalidBody());
    } finally {
      ShopDatabase.update(
          "UPDATE idempotency_record SET status = 'COMPLETED'" + where, operation.name, key);
    }
    assertThat(invalid.statusCode()).as(invalid.asString()).isEqualTo(400);
    assertThat((String) invalid.path("type")).endsWith("#invalid-request-body");
    assertThat(expiryHeader(invalid)).isEqualTo(stored);
  }

  @ParameterizedTest
  @EnumSource(Operation.class)
  void storedBodyThatCannotBeTrusted_503_statesTheRowsExpiry(Operation operation) {
    String key = newKey();
    String body = operation.validBody();
    Response first = operation.send(key, body);
    assertThat(first.statusCode()).as(first.asString()).isIn(201, 402);
    Instant stored = ShopDatabase.expireIn("alice", operation.name, key, Duration.ofHours(2));
    // Plain text where the server seals bodies: it refuses to replay it (docs/problems.md).
    assertThat(
            ShopDatabase.update(
                "UPDATE idempotency_record SET response_body = ?"
                    + " WHERE tenant_id = 'alice' AND operation = ? AND idempotency_key = ?",
                "{\"forged\":true}".getBytes(java.nio.charset.StandardCharsets.UTF_8),
                operation.name,
                key))
        .isEqualTo(1);

    Response retry = operation.send(key, body);

    assertThat(retry.statusCode()).as(retry.asString()).isEqualTo(503);
    assertThat((String) retry.path("type")).endsWith("#idempotency-store-unavailable");
    assertThat(assertProblemStatesExpiry(retry, operation)).isEqualTo(stored);
  }

  /** The header and the body agree, name the operation; returns the expiry. */
  static Instant assertProblemStatesExpiry(Response response, Operation operation) {
    return assertProblemStatesExpiry(response, operation.name);
  }

  static Instant assertProblemStatesExpiry(Response response, String operation) {
    assertThat(response.contentType()).startsWith("application/problem+json");
    assertThat((String) response.path("operation")).isEqualTo(operation);
    Instant inBody = Instant.parse(response.path("idempotencyKeyExpiresAt"));
    assertThat(expiryHeader(response)).isEqualTo(inBody.truncatedTo(ChronoUnit.SECONDS));
    return inBody;
  }

  static Instant expiryHeader(Response response) {
    String header = response.header("Idempotency-Key-Expires");
    assertThat(header).as("Idempotency-Key-Expires").matches(IMF_FIXDATE);
    return Instant.from(DateTimeFormatter.RFC_1123_DATE_TIME.parse(header));
  }
}
