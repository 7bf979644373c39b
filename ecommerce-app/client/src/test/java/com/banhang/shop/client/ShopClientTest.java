package com.banhang.shop.client;

import static com.banhang.shop.client.ScriptedShop.created;
import static com.banhang.shop.client.ScriptedShop.dropConnection;
import static com.banhang.shop.client.ScriptedShop.plain;
import static com.banhang.shop.client.ScriptedShop.problem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.banhang.shop.client.ScriptedShop.Received;
import com.banhang.shop.client.ScriptedShop.Reply;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The client against a scripted shop: what it sends, what it retries, what it returns. */
class ShopClientTest {

  static final CreateOrder ORDER = CreateOrder.of("VND", new CreateOrder.Item("SKU-1", 2, 625_000));
  static final String ORDER_JSON =
      "{\"currency\":\"VND\",\"items\":[{\"sku\":\"SKU-1\",\"quantity\":2,\"unitPrice\":625000}]}";
  static final String ORDER_VIEW =
      "{\"id\":\"o-1\",\"status\":\"PENDING_PAYMENT\",\"currency\":\"VND\",\"total\":1250000}";
  static final String QUOTED_UUID_V4 =
      "\"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\"";

  private ScriptedShop shop;
  private FakeClock clock;
  private IntentStore store;

  @BeforeEach
  void start() throws IOException {
    shop = new ScriptedShop();
    clock = new FakeClock();
    store = IntentStore.inMemory();
  }

  @AfterEach
  void stop() {
    shop.close();
  }

  private RetryPolicy policy() {
    return new RetryPolicy(
        Duration.ofMillis(100),
        Duration.ofSeconds(2),
        Duration.ofSeconds(30),
        Duration.ofSeconds(5),
        new Random(11),
        clock);
  }

  private ShopClient client(RetryPolicy policy) {
    return ShopClient.builder()
        .baseUri(shop.baseUri())
        .basicAuth("alice", "alice-secret")
        .intentStore(store)
        .retryPolicy(policy)
        .build();
  }

  private ShopClient client() {
    return client(policy());
  }

  @Test
  void createsAnOrderUnderANewKeyWithTheContractsHeaders() {
    shop.script(created(ORDER_VIEW).header("Location", "/api/v1/orders/o-1"));

    Result result = client().orders().create(ORDER);

    assertThat(result).isInstanceOf(Result.Created.class);
    Result.Created created = (Result.Created) result;
    assertThat(created.status()).isEqualTo(201);
    assertThat(created.location()).contains("/api/v1/orders/o-1");
    assertThat(created.json().getString("id")).isEqualTo("o-1");
    Received request = shop.received().get(0);
    assertThat(request.method()).isEqualTo("POST");
    assertThat(request.path()).isEqualTo("/api/v1/orders");
    assertThat(request.bodyText()).isEqualTo(ORDER_JSON);
    assertThat(request.key()).matches(QUOTED_UUID_V4);
    assertThat(request.headers().getFirst("Content-Type")).isEqualTo("application/json");
    assertThat(request.headers().getFirst("Authorization"))
        .isEqualTo(
            "Basic "
                + Base64.getEncoder()
                    .encodeToString("alice:alice-secret".getBytes(StandardCharsets.UTF_8)));
    assertThat(store.pending()).as("a final answer ends the intent").isEmpty();
  }

  @Test
  void paysTheOrderUnderItsPathWithTheOrderIdAsOneSegment() {
    shop.script(created("{\"id\":\"p-1\",\"status\":\"CAPTURED\"}"));

    Result result =
        client().payments().pay("o 1/x", new PaymentRequest(1_250_000, "VND", "pm_card_ok"));

    assertThat(result).isInstanceOf(Result.Created.class);
    Received request = shop.received().get(0);
    assertThat(request.path()).isEqualTo("/api/v1/orders/o%201%2Fx/payments");
    assertThat(request.bodyText())
        .isEqualTo("{\"amount\":1250000,\"currency\":\"VND\",\"paymentMethod\":\"pm_card_ok\"}");
  }

  static Stream<Named<Reply>> answersThatAreNotFinal() {
    return Stream.of(
        Named.of("409 idempotency-key-in-use", problem(409, "idempotency-key-in-use")),
        Named.of("409 payment-outcome-unknown", problem(409, "payment-outcome-unknown")),
        Named.of("429 too-many-new-keys", problem(429, "too-many-new-keys")),
        Named.of(
            "503 idempotency-store-unavailable", problem(503, "idempotency-store-unavailable")),
        Named.of("503 payment-gateway-unavailable", problem(503, "payment-gateway-unavailable")),
        Named.of("503 database-unavailable", problem(503, "database-unavailable")),
        Named.of("504 payment-outcome-unknown", problem(504, "payment-outcome-unknown")),
        Named.of("500 internal-error (key released)", problem(500, "internal-error")),
        Named.of("502 from a proxy, not a problem", plain(502, "<html>Bad Gateway</html>")),
        Named.of("408 request timeout", plain(408, "")),
        Named.of("409 without a problem type", plain(409, "Conflict")),
        Named.of("connection dropped without an answer", dropConnection()));
  }

  @ParameterizedTest
  @MethodSource("answersThatAreNotFinal")
  void retriesAnAnswerThatIsNotFinalWithTheSameKeyAndBytes(Reply notFinal) {
    shop.script(notFinal, created(ORDER_VIEW));

    Result result = client().orders().create(ORDER);

    assertThat(result).isInstanceOf(Result.Created.class);
    List<Received> received = shop.received();
    assertThat(received).hasSize(2);
    assertThat(received.get(1).key()).isEqualTo(received.get(0).key());
    assertThat(received.get(1).body()).isEqualTo(received.get(0).body());
    assertThat(clock.sleeps()).hasSize(1);
  }

  @Test
  void everyKindOfRetryInOneIntentCarriesTheCallersKeyAndTheSameBytes() {
    answersThatAreNotFinal().forEach(named -> shop.script(named.getPayload()));
    shop.script(created("{\"id\":\"p-1\"}"));

    Result result =
        client()
            .payments()
            .pay("o-1", new PaymentRequest(1_250_000, "VND", "pm_card_ok"), "order-10063-pay-1");

    assertThat(result).isInstanceOf(Result.Created.class);
    List<Received> received = shop.received();
    assertThat(received).hasSize((int) answersThatAreNotFinal().count() + 1);
    assertThat(received).extracting(Received::key).containsOnly("\"order-10063-pay-1\"");
    assertThat(received)
        .extracting(Received::bodyText)
        .containsOnly("{\"amount\":1250000,\"currency\":\"VND\",\"paymentMethod\":\"pm_card_ok\"}");
  }

  static Stream<Arguments> finalAnswers() {
    return Stream.of(
        Arguments.of(problem(400, "invalid-request-body"), Result.Rejected.class),
        Arguments.of(problem(400, "idempotency-key-invalid"), Result.Rejected.class),
        Arguments.of(problem(401, "unauthorized"), Result.Rejected.class),
        Arguments.of(problem(403, "forbidden"), Result.Rejected.class),
        Arguments.of(problem(404, "order-not-found"), Result.Rejected.class),
        Arguments.of(problem(409, "merchant-order-id-taken"), Result.Rejected.class),
        Arguments.of(problem(409, "order-already-paid"), Result.Rejected.class),
        Arguments.of(problem(409, "payment-in-progress"), Result.Rejected.class),
        Arguments.of(problem(413, "request-body-too-large"), Result.Rejected.class),
        Arguments.of(problem(422, "idempotency-key-reused"), Result.Rejected.class),
        Arguments.of(problem(422, "payment-amount-mismatch"), Result.Rejected.class),
        Arguments.of(problem(402, "payment-declined"), Result.Declined.class));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("finalAnswers")
  void neverRetriesAFinalAnswerAndEndsTheIntent(Reply answer, Class<? extends Result> type) {
    shop.script(answer, created(ORDER_VIEW));

    Result result = client().orders().create(ORDER);

    assertThat(result).isInstanceOf(type);
    Problem problem =
        result instanceof Result.Declined declined
            ? declined.problem()
            : ((Result.Rejected) result).problem();
    assertThat(problem.status()).isEqualTo(answer.status());
    assertThat(answer.body()).contains("#" + problem.slug() + "\"");
    assertThat(problem.title()).isEqualTo("t-" + problem.slug());
    assertThat(problem.detail()).isEqualTo("d-" + problem.slug());
    assertThat(shop.received()).hasSize(1);
    assertThat(clock.sleeps()).isEmpty();
    assertThat(store.pending()).isEmpty();
  }

  @Test
  void recognisesAReplayedSuccess() {
    shop.script(
        created(ORDER_VIEW)
            .header("Location", "/api/v1/orders/o-1")
            .header("Idempotent-Replayed", "true"));

    Result result = client().orders().create(ORDER);

    assertThat(result)
        .isEqualTo(new Result.Replayed(201, ORDER_VIEW, Optional.of("/api/v1/orders/o-1")));
  }

  @Test
  void aReplayedDeclineIsADeclineWithItsProblem() {
    String body =
        "{\"type\":\"https://github.com/banhang/shop/blob/main/docs/problems.md#payment-declined\","
            + "\"title\":\"Payment declined\",\"status\":402,\"detail\":\"declined\","
            + "\"paymentId\":\"p-9\",\"orderId\":\"o-1\"}";
    shop.script(
        new Reply(
                402,
                java.util.Map.of("Content-Type", "application/problem+json"),
                body,
                Duration.ZERO,
                false)
            .header("Idempotent-Replayed", "true"));

    Result result =
        client().payments().pay("o-1", new PaymentRequest(1, "VND", "pm_card_declined"));

    assertThat(result).isInstanceOf(Result.Declined.class);
    Result.Declined declined = (Result.Declined) result;
    assertThat(declined.replayed()).isTrue();
    assertThat(declined.problem().slug()).isEqualTo("payment-declined");
    assertThat(declined.problem().extensions()).containsEntry("paymentId", "p-9");
  }

  @Test
  void waitsWhatRetryAfterAsksInSeconds() {
    shop.script(problem(503, "payment-gateway-unavailable").header("Retry-After", "7"));
    shop.script(created(ORDER_VIEW));

    assertThat(client().orders().create(ORDER)).isInstanceOf(Result.Created.class);

    // The jitter bound is 100 ms, so the wait is exactly what the shop asked.
    assertThat(clock.sleeps()).containsExactly(Duration.ofSeconds(7));
  }

  @Test
  void waitsWhatRetryAfterAsksAsAnHttpDate() {
    String in12Seconds =
        DateTimeFormatter.RFC_1123_DATE_TIME.format(
            FakeClock.START.plusSeconds(12).atOffset(ZoneOffset.UTC));
    shop.script(problem(429, "too-many-new-keys").header("Retry-After", in12Seconds));
    shop.script(created(ORDER_VIEW));

    assertThat(client().orders().create(ORDER)).isInstanceOf(Result.Created.class);

    assertThat(clock.sleeps()).containsExactly(Duration.ofSeconds(12));
  }

  @Test
  void aRetryAfterPastTheDeadlineEndsTheIntentAsUnknownWithoutWaiting() {
    shop.script(problem(503, "idempotency-store-unavailable").header("Retry-After", "60"));

    Result result = client().orders().create(ORDER);

    assertThat(result).isInstanceOf(Result.OutcomeUnknown.class);
    assertThat(((Result.OutcomeUnknown) result).lastAnswer())
        .isEqualTo("503 idempotency-store-unavailable");
    assertThat(clock.sleeps()).isEmpty();
    assertThat(shop.received()).hasSize(1);
  }

  @Test
  void theBackoffStaysUnderTheMaxDelayAndNeverWaitsPastTheDeadline() {
    RetryPolicy policy =
        policy()
            .withFirstDelay(Duration.ofMillis(100))
            .withMaxDelay(Duration.ofMillis(800))
            .withDeadline(Duration.ofSeconds(10));
    shop.script(
        Collections.nCopies(500, problem(503, "idempotency-store-unavailable"))
            .toArray(Reply[]::new));

    Result result = client(policy).orders().create(ORDER);

    assertThat(result).isInstanceOf(Result.OutcomeUnknown.class);
    Result.OutcomeUnknown unknown = (Result.OutcomeUnknown) result;
    List<Duration> sleeps = clock.sleeps();
    for (int retry = 1; retry <= sleeps.size(); retry++) {
      assertThat(sleeps.get(retry - 1))
          .as("wait before retry %d", retry)
          .isBetween(Duration.ZERO, policy.backoffBound(retry));
    }
    assertThat(policy.backoffBound(sleeps.size())).isEqualTo(Duration.ofMillis(800));
    assertThat(clock.slept()).isLessThan(Duration.ofSeconds(10));
    assertThat(unknown.tries()).isEqualTo(shop.received().size()).isEqualTo(sleeps.size() + 1);
    assertThat(unknown.lastAnswer()).isEqualTo("503 idempotency-store-unavailable");
  }

  @Test
  void anOutcomeStillUnknownAtTheDeadlineCarriesTheKeyAndStaysPendingToResume() {
    shop.script(
        Collections.nCopies(100, problem(409, "payment-outcome-unknown").header("Retry-After", "1"))
            .toArray(Reply[]::new));
    ShopClient client = client(policy().withDeadline(Duration.ofSeconds(5)));

    Result result = client.payments().pay("o-1", new PaymentRequest(1, "VND", "pm_card_ok"));

    assertThat(result).isInstanceOf(Result.OutcomeUnknown.class);
    Result.OutcomeUnknown unknown = (Result.OutcomeUnknown) result;
    String sentKey = shop.received().get(0).key();
    assertThat(sentKey).isEqualTo('"' + unknown.idempotencyKey() + '"');
    assertThat(unknown.lastAnswer()).isEqualTo("409 payment-outcome-unknown");
    assertThat(clock.sleeps())
        .allSatisfy(wait -> assertThat(wait).isGreaterThanOrEqualTo(Duration.ofSeconds(1)));
    assertThat(client.pending())
        .singleElement()
        .satisfies(
            intent -> {
              assertThat(intent.id()).isEqualTo(unknown.intentId().orElseThrow());
              assertThat(intent.idempotencyKey()).isEqualTo(unknown.idempotencyKey());
            });

    int triesBefore = shop.received().size();
    shop.close();
    shop = restartedShopWith(created("{\"id\":\"p-1\"}").header("Idempotent-Replayed", "true"));
    ShopClient later =
        ShopClient.builder()
            .baseUri(shop.baseUri())
            .basicAuth("alice", "alice-secret")
            .intentStore(store)
            .retryPolicy(policy())
            .build();

    assertThat(later.resume(unknown.intentId().orElseThrow())).isInstanceOf(Result.Replayed.class);
    assertThat(shop.received()).singleElement().extracting(Received::key).isEqualTo(sentKey);
    assertThat(later.pending()).isEmpty();
    assertThat(triesBefore).isGreaterThan(1);
  }

  private static ScriptedShop restartedShopWith(Reply reply) {
    try {
      return new ScriptedShop().script(reply);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void noAnswerUntilTheDeadlineIsOutcomeUnknownNotAnException() throws IOException {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    ShopClient client =
        ShopClient.builder()
            .baseUri("http://127.0.0.1:" + closedPort)
            .intentStore(store)
            .retryPolicy(policy().withDeadline(Duration.ofSeconds(3)))
            .build();

    Result result = client.orders().create(ORDER);

    assertThat(result).isInstanceOf(Result.OutcomeUnknown.class);
    Result.OutcomeUnknown unknown = (Result.OutcomeUnknown) result;
    assertThat(unknown.tries()).isGreaterThan(1);
    assertThat(unknown.lastAnswer()).startsWith("no answer: java.net.ConnectException");
    assertThat(store.pending()).hasSize(1);
  }

  @Test
  void aTryThatTimesOutIsRetriedUnderTheSameKey() {
    shop.script(created(ORDER_VIEW).after(Duration.ofMillis(1_500)), created(ORDER_VIEW));

    Result result =
        client(policy().withPerTryTimeout(Duration.ofMillis(200))).orders().create(ORDER);

    assertThat(result).isInstanceOf(Result.Created.class);
    List<Received> received = shop.received();
    assertThat(received).hasSize(2);
    assertThat(received.get(1).key()).isEqualTo(received.get(0).key());
  }

  @Test
  void theLastTryIsGivenOnlyWhatIsLeftOfTheDeadline() {
    // Per-try timeout 5 s, deadline 300 ms: the only try is cut at the deadline. The real clock,
    // since the time that matters here is the time the try takes.
    shop.script(created(ORDER_VIEW).after(Duration.ofMillis(1_500)));
    RetryPolicy policy =
        policy().withClock(RetryClock.system()).withDeadline(Duration.ofMillis(300));

    long started = System.nanoTime();
    Result result = client(policy).orders().create(ORDER);

    assertThat(result).isInstanceOf(Result.OutcomeUnknown.class);
    assertThat(((Result.OutcomeUnknown) result).lastAnswer())
        .matches("no answer within (2\\d\\d|300) ms");
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(1_400));
  }

  @Test
  void anInterruptedCallerGetsOutcomeUnknownAndKeepsTheIntent() {
    RetryClock interrupting =
        new RetryClock() {
          @Override
          public long nanoTime() {
            return clock.nanoTime();
          }

          @Override
          public Instant now() {
            return clock.now();
          }

          @Override
          public void sleep(Duration delay) throws InterruptedException {
            throw new InterruptedException("shutting down");
          }
        };
    shop.script(problem(503, "payment-gateway-unavailable"));

    Result result = client(policy().withClock(interrupting)).orders().create(ORDER);

    assertThat(Thread.interrupted()).as("the interrupt is kept for the caller").isTrue();
    assertThat(result).isInstanceOf(Result.OutcomeUnknown.class);
    assertThat(((Result.OutcomeUnknown) result).lastAnswer()).endsWith("; interrupted");
    assertThat(store.pending()).hasSize(1);
  }

  @Test
  void sendsTheCallersKeyAsAQuotedStringWithItsQuoteAndBackslashEscaped() {
    shop.script(created(ORDER_VIEW));

    client().orders().create(ORDER, "\"k\\1");

    // The only escapes the shop accepts in a quoted key (docs/contract.md, section 3).
    assertThat(shop.received())
        .singleElement()
        .extracting(Received::key)
        .isEqualTo("\"\\\"k\\\\1\"");
  }

  @Test
  void refusesAnInvalidKeyOfTheCallerBeforeStoringOrSending() {
    ShopClient client = client();

    assertThatThrownBy(() -> client.orders().create(ORDER, "two words"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("0x20");
    assertThatThrownBy(() -> client.orders().create(ORDER, "k".repeat(256)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(shop.received()).isEmpty();
    assertThat(store.pending()).isEmpty();
  }

  @Test
  void anIntentThatCannotBeStoredIsNeverSent() {
    IntentStore broken =
        new IntentStore() {
          @Override
          public void save(Intent intent) {
            throw new IntentStoreException("disk full");
          }

          @Override
          public Optional<Intent> find(String intentId) {
            return Optional.empty();
          }

          @Override
          public List<Intent> pending() {
            return List.of();
          }

          @Override
          public void remove(String intentId) {}
        };
    shop.script(created(ORDER_VIEW));
    store = broken;

    assertThatThrownBy(() -> client().orders().create(ORDER))
        .isInstanceOf(IntentStoreException.class)
        .hasMessage("disk full");
    assertThat(shop.received()).isEmpty();
  }

  @Test
  void resumeRefusesAKeyTheShopSaidHasExpired() {
    Instant expiry = FakeClock.START.plus(Duration.ofHours(1));
    String header = DateTimeFormatter.RFC_1123_DATE_TIME.format(expiry.atOffset(ZoneOffset.UTC));
    shop.script(
        problem(409, "idempotency-key-in-use")
            .header("Retry-After", "1")
            .header("Idempotency-Key-Expires", header));
    ShopClient client = client(policy().withDeadline(Duration.ofMillis(500)));

    Result.OutcomeUnknown unknown = (Result.OutcomeUnknown) client.orders().create(ORDER);
    assertThat(client.pending())
        .singleElement()
        .extracting(Intent::keyExpiresAt)
        .isEqualTo(Optional.of(expiry));
    clock.advance(Duration.ofHours(2));

    String intentId = unknown.intentId().orElseThrow();
    assertThatThrownBy(() -> client.resume(intentId))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("expires at " + expiry);
    assertThat(shop.received()).hasSize(1);
    client.discard(intentId);
    assertThat(client.pending()).isEmpty();
  }

  @Test
  void resumeRefusesAnotherUserWhoseKeyWouldBeAnotherIntent() {
    shop.script(problem(503, "payment-gateway-unavailable").header("Retry-After", "3600"));
    Result.OutcomeUnknown unknown = (Result.OutcomeUnknown) client().orders().create(ORDER);
    ShopClient bob =
        ShopClient.builder()
            .baseUri(shop.baseUri())
            .basicAuth("bob", "bob-secret")
            .intentStore(store)
            .retryPolicy(policy())
            .build();

    assertThatThrownBy(() -> bob.resume(unknown.intentId().orElseThrow()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("started as alice, not bob");
    assertThat(shop.received()).hasSize(1);
  }

  @Test
  void resumeOfAnIntentWithoutSuchIdIsRefused() {
    assertThatThrownBy(() -> client().resume("no-such-intent"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no-such-intent");
  }
}
