package com.banhang.events.webhooks;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import com.banhang.events.EventEnvelope;
import com.banhang.events.OutboxEvent;
import com.banhang.events.jdbc.JdbcOutboxStore;
import com.standardwebhooks.Webhook;
import com.standardwebhooks.exceptions.WebhookVerificationException;
import jakarta.json.Json;
import java.io.ByteArrayInputStream;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The dispatcher against real HTTP subscribers on 127.0.0.1 (the JDK's HTTP server, in this JVM),
 * with the guard's development switches on and a retry schedule of milliseconds: what each
 * subscriber receives, what is logged, and what the operator sees and does.
 */
class WebhookDispatcherTest {

  private static final String SOURCE = "urn:test:shop";

  /** Five attempts, a millisecond apart after the first. */
  private static final String SHORT_SCHEDULE = "PT0S,PT0.001S,PT0.001S,PT0.001S,PT0.001S";

  private static DataSource dataSource;

  private final Map<String, String> config = new HashMap<>();
  private final List<TestReceiver> receivers = new ArrayList<>();
  private JdbcWebhookDeliveryStore store;
  private WebhookTransport transport;
  private WebhookDispatcher dispatcher;
  private WebhookOperations operations;

  @BeforeAll
  static void createDatabase() {
    dataSource = Databases.h2();
  }

  @BeforeEach
  void configure() throws Exception {
    Databases.empty(dataSource);
    store = JdbcWebhookDeliveryStore.forDataSource(dataSource);
    config.put("events.source", SOURCE);
    config.put("events.webhooks.allow-private-targets", "true");
    config.put("events.webhooks.allow-http", "true");
    config.put("events.webhooks.retry-schedule", SHORT_SCHEDULE);
  }

  @AfterEach
  void stopReceivers() {
    receivers.forEach(TestReceiver::close);
  }

  private TestReceiver receiver(TestReceiver receiver) {
    receivers.add(receiver);
    return receiver;
  }

  private void subscribe(String name, TestReceiver receiver, String... secrets) {
    String names = config.get("events.webhooks.endpoints");
    config.put("events.webhooks.endpoints", names == null ? name : names + "," + name);
    config.put("events.webhooks." + name + ".url", receiver.url().toString());
    config.put("events.webhooks." + name + ".tenants", "*");
    config.put("events.webhooks." + name + ".secrets", String.join(",", secrets));
  }

  /** The beans as the container would wire them, on the configuration of this test. */
  private void start() {
    WebhookConfiguration configuration =
        new WebhookConfiguration(
            WebhookSettings.read(name -> Optional.ofNullable(config.get(name))));
    transport = new WebhookTransport();
    transport.configuration = configuration;
    transport.store = store;
    dispatcher = new WebhookDispatcher();
    dispatcher.configuration = configuration;
    dispatcher.store = store;
    operations = new WebhookOperations();
    operations.store = store;
  }

  private OutboxEvent publish() throws Exception {
    OutboxEvent event =
        new OutboxEvent(
            UUID.randomUUID().toString(),
            "order",
            "o-" + UUID.randomUUID(),
            1,
            "OrderPaid",
            "tenant-a",
            "{\"total\":\"12.50\",\"note\":\"café\"}",
            Instant.now(),
            1);
    transport.publish(event).toCompletableFuture().get();
    return event;
  }

  private WebhookDelivery delivery(OutboxEvent event, String endpoint) {
    return store.deliveriesOf(event.id()).stream()
        .filter(delivery -> delivery.endpoint().equals(endpoint))
        .findFirst()
        .orElseThrow();
  }

  private BooleanSupplier hasStatus(OutboxEvent event, String endpoint, DeliveryStatus status) {
    return () -> delivery(event, endpoint).status() == status;
  }

  /** Runs the dispatcher as the application's schedule would, until {@code done}. */
  private void deliverUntil(String what, BooleanSupplier done) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!done.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        fail("not reached in 30 s: " + what);
      }
      dispatcher.deliverDue();
      Thread.sleep(5);
    }
  }

  private static Map<String, List<String>> signedHeaders(TestReceiver.Received request) {
    return Map.of(
        "webhook-id", List.of(request.header("webhook-id")),
        "webhook-timestamp", List.of(request.header("webhook-timestamp")),
        "webhook-signature", List.of(request.header("webhook-signature")));
  }

  @Test
  void aSubscriberFailingThreeTimes_getsTheSameIdAndBodyEachTime_signed_andFourAttemptsAreLogged()
      throws Exception {
    String secret = Secrets.newSecret();
    TestReceiver receiver = receiver(TestReceiver.answering(500, 500, 500, 200));
    subscribe("crm", receiver, secret);
    start();

    OutboxEvent event = publish();
    deliverUntil("delivered", hasStatus(event, "crm", DeliveryStatus.DELIVERED));

    List<TestReceiver.Received> requests = receiver.requests();
    assertThat(requests).hasSize(4);
    byte[] body = EventEnvelope.json(event, SOURCE).getBytes(UTF_8);
    long previous = 0;
    for (TestReceiver.Received request : requests) {
      assertThat(request.header("webhook-id")).isEqualTo(event.id());
      assertThat(request.body()).isEqualTo(body);
      assertThat(request.header("content-type")).isEqualTo("application/json");
      long timestamp = Long.parseLong(request.header("webhook-timestamp"));
      assertThat(timestamp).isGreaterThanOrEqualTo(previous);
      previous = timestamp;
      // The library's own verification, as any subscriber runs it.
      new Webhook(secret).verify(new String(request.body(), UTF_8), request.headers());
    }
    DeliveryHistory history = operations.deliveriesOf(event.id()).get(0);
    assertThat(history.delivery().status()).isEqualTo(DeliveryStatus.DELIVERED);
    assertThat(history.delivery().attempts()).isEqualTo(4);
    assertThat(history.delivery().lastStatus()).isEqualTo(200);
    assertThat(history.delivery().deliveredAt()).isNotNull();
    assertThat(history.attempts()).extracting(DeliveryAttempt::number).containsExactly(1, 2, 3, 4);
    assertThat(history.attempts())
        .extracting(DeliveryAttempt::httpStatus)
        .containsExactly(500, 500, 500, 200);
    assertThat(history.attempts())
        .extracting(DeliveryAttempt::error)
        .containsExactly("HTTP 500", "HTTP 500", "HTTP 500", null);
  }

  @Test
  void aSubscriberThatAlwaysFails_isParkedAfterTheSchedule_withItsAttempts_andARetrySendsItAgain()
      throws Exception {
    TestReceiver receiver = receiver(TestReceiver.answering(503));
    subscribe("crm", receiver, Secrets.newSecret());
    start();

    OutboxEvent event = publish();
    deliverUntil("parked", hasStatus(event, "crm", DeliveryStatus.PARKED));

    assertThat(receiver.requests()).hasSize(5);
    assertThat(operations.parked(10))
        .singleElement()
        .satisfies(
            parked -> {
              assertThat(parked.eventId()).isEqualTo(event.id());
              assertThat(parked.endpoint()).isEqualTo("crm");
              assertThat(parked.lastStatus()).isEqualTo(503);
              assertThat(parked.lastError()).isEqualTo("HTTP 503");
            });
    String deliveryId = operations.parked(10).get(0).id();
    assertThat(operations.attempts(deliveryId))
        .hasSize(5)
        .extracting(DeliveryAttempt::httpStatus)
        .containsOnly(503);
    dispatcher.deliverDue();
    assertThat(receiver.requests()).hasSize(5);

    receiver.answer(TestReceiver.inOrder(200));
    assertThat(operations.retry(deliveryId)).isTrue();
    deliverUntil("delivered after the retry", hasStatus(event, "crm", DeliveryStatus.DELIVERED));

    assertThat(operations.parked(10)).isEmpty();
    List<DeliveryAttempt> attempts = operations.delivery(deliveryId).orElseThrow().attempts();
    assertThat(attempts).hasSize(6);
    assertThat(attempts.get(5).number()).isEqualTo(1);
    assertThat(attempts.get(5).httpStatus()).isEqualTo(200);
    assertThat(receiver.requests())
        .extracting(request -> request.header("webhook-id"))
        .containsOnly(event.id());
  }

  @Test
  void goneDisablesTheEndpoint_nothingMoreIsSentToIt_untilAnOperatorReEnablesIt() throws Exception {
    TestReceiver gone = receiver(TestReceiver.answering(410));
    TestReceiver other = receiver(TestReceiver.answering(200));
    subscribe("crm", gone, Secrets.newSecret());
    subscribe("erp", other, Secrets.newSecret());
    start();

    OutboxEvent first = publish();
    deliverUntil("crm disabled", hasStatus(first, "crm", DeliveryStatus.DISABLED));
    deliverUntil("erp delivered", hasStatus(first, "erp", DeliveryStatus.DELIVERED));
    OutboxEvent second = publish();
    deliverUntil("erp delivered", hasStatus(second, "erp", DeliveryStatus.DELIVERED));
    for (int i = 0; i < 3; i++) {
      dispatcher.deliverDue();
    }

    assertThat(gone.requests()).hasSize(1);
    assertThat(delivery(second, "crm").status()).isEqualTo(DeliveryStatus.DISABLED);
    assertThat(operations.disabledEndpoints())
        .singleElement()
        .satisfies(
            disabled -> {
              assertThat(disabled.endpoint()).isEqualTo("crm");
              assertThat(disabled.reason()).contains("410", first.id());
            });
    assertThat(operations.attempts(delivery(first, "crm").id()))
        .extracting(DeliveryAttempt::httpStatus)
        .containsExactly(410);

    gone.answer(TestReceiver.inOrder(204));
    assertThat(operations.enable("crm")).isTrue();
    deliverUntil("first resumed", hasStatus(first, "crm", DeliveryStatus.DELIVERED));
    deliverUntil("second resumed", hasStatus(second, "crm", DeliveryStatus.DELIVERED));

    assertThat(gone.requests())
        .extracting(request -> request.header("webhook-id"))
        .containsExactlyInAnyOrder(first.id(), first.id(), second.id());
    assertThat(operations.disabledEndpoints()).isEmpty();
  }

  @Test
  void retryAfterInSeconds_isHonouredWhenLongerThanTheSchedule() throws Exception {
    TestReceiver receiver =
        receiver(
            TestReceiver.answering(
                request -> new TestReceiver.Answer(503, Map.of("Retry-After", "30"))));
    subscribe("crm", receiver, Secrets.newSecret());
    start();

    OutboxEvent event = publish();
    dispatcher.deliverDue();
    dispatcher.deliverDue();

    assertThat(receiver.requests()).hasSize(1);
    WebhookDelivery delivery = delivery(event, "crm");
    assertThat(delivery.status()).isEqualTo(DeliveryStatus.PENDING);
    Instant attempted = operations.attempts(delivery.id()).get(0).attemptedAt();
    // Both times are the database's: the retry is at least the 30 s asked for after the attempt.
    assertThat(Duration.between(attempted, delivery.nextAttemptAt()))
        .isGreaterThanOrEqualTo(Duration.ofSeconds(30));
  }

  @Test
  void retryAfterAsAnHttpDate_isHonoured_butNeverShortensTheSchedule() throws Exception {
    config.put("events.webhooks.retry-schedule", "PT0S,PT1H");
    String inTwoHours =
        DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC).plusHours(2));
    TestReceiver longer =
        receiver(
            TestReceiver.answering(
                request -> new TestReceiver.Answer(429, Map.of("Retry-After", inTwoHours))));
    TestReceiver shorter =
        receiver(
            TestReceiver.answering(
                request -> new TestReceiver.Answer(503, Map.of("Retry-After", "1"))));
    subscribe("longer", longer, Secrets.newSecret());
    subscribe("shorter", shorter, Secrets.newSecret());
    start();

    OutboxEvent event = publish();
    dispatcher.deliverDue();

    for (String endpoint : List.of("longer", "shorter")) {
      WebhookDelivery delivery = delivery(event, endpoint);
      Instant attempted = operations.attempts(delivery.id()).get(0).attemptedAt();
      Duration wait = Duration.between(attempted, delivery.nextAttemptAt());
      if (endpoint.equals("longer")) {
        // The date has whole seconds: at least the two hours less one second.
        assertThat(wait).as(endpoint).isGreaterThan(Duration.ofMinutes(119));
      } else {
        assertThat(wait).as(endpoint).isGreaterThanOrEqualTo(Duration.ofHours(1));
      }
    }
    assertThat(longer.requests()).hasSize(1);
    assertThat(shorter.requests()).hasSize(1);
  }

  @Test
  void duringARotationBothSecretsSign_andAReceiverKnowingEitherOneAccepts() throws Exception {
    String oldSecret = Secrets.newSecret();
    String newSecret = Secrets.newSecret();
    TestReceiver receiver = receiver(TestReceiver.answering(204));
    subscribe("crm", receiver, oldSecret, newSecret);
    start();

    OutboxEvent event = publish();
    deliverUntil("delivered", hasStatus(event, "crm", DeliveryStatus.DELIVERED));

    TestReceiver.Received request = receiver.requests().get(0);
    String[] signatures = request.header("webhook-signature").split(" ");
    assertThat(signatures).hasSize(2).allSatisfy(s -> assertThat(s).startsWith("v1,"));
    String body = new String(request.body(), UTF_8);
    new Webhook(newSecret).verify(body, signedHeaders(request));
    new Webhook(oldSecret).verify(body, signedHeaders(request));
    assertThatThrownBy(() -> new Webhook(Secrets.newSecret()).verify(body, signedHeaders(request)))
        .isInstanceOf(WebhookVerificationException.class);
    assertThat(
            new StandardWebhookVerification(List.of(newSecret))
                .verify(request.headers(), request.body()))
        .isEqualTo(event.id());
  }

  /**
   * A sample subscriber as the shop's partners would write one: it verifies each request with the
   * helper, refuses forgeries with 401, and handles each event once through an inbox, even when the
   * same event arrives again because its first answer was lost.
   */
  @Test
  void aSampleSubscriber_handlesADuplicateDeliveryOnce_andRefusesForgeries() throws Exception {
    String secret = Secrets.newSecret();
    JdbcOutboxStore inbox = JdbcOutboxStore.forDataSource(dataSource);
    StandardWebhookVerification verification = new StandardWebhookVerification(List.of(secret));
    AtomicInteger handled = new AtomicInteger();
    AtomicInteger answers = new AtomicInteger();
    TestReceiver receiver =
        receiver(
            TestReceiver.answering(
                request -> {
                  String id;
                  try {
                    id = verification.verify(request.headers(), request.body());
                  } catch (RefusedWebhookException e) {
                    return TestReceiver.Answer.of(401);
                  }
                  String source =
                      Json.createReader(new ByteArrayInputStream(request.body()))
                          .readObject()
                          .getString("source");
                  if (inbox.receive(source, id)) {
                    handled.incrementAndGet();
                  }
                  // The first answer is lost, as when the subscriber fails after its work.
                  return TestReceiver.Answer.of(answers.getAndIncrement() == 0 ? 500 : 204);
                }));
    subscribe("crm", receiver, secret);
    start();

    OutboxEvent event = publish();
    transport.publish(event).toCompletableFuture().get();
    deliverUntil("delivered", hasStatus(event, "crm", DeliveryStatus.DELIVERED));

    assertThat(receiver.requests()).hasSize(2);
    assertThat(handled).hasValue(1);

    TestReceiver.Received genuine = receiver.requests().get(1);
    byte[] changed = genuine.body().clone();
    changed[changed.length / 2] ^= 0x01;
    long stale = Instant.now().minusSeconds(400).getEpochSecond();
    String staleSignature =
        WebhookSigner.of(List.of(secret))
            .signature(event.id(), stale, new String(genuine.body(), UTF_8));
    assertThat(post(receiver, genuine.header("webhook-timestamp"), genuine, changed))
        .as("one byte of the body changed")
        .isEqualTo(401);
    assertThat(
            post(
                receiver,
                genuine.header("webhook-timestamp"),
                genuine.header("webhook-id"),
                "v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
                genuine.body()))
        .as("a signature not made with the secret")
        .isEqualTo(401);
    assertThat(post(receiver, Long.toString(stale), event.id(), staleSignature, genuine.body()))
        .as("a timestamp older than five minutes")
        .isEqualTo(401);
    assertThat(post(receiver, genuine.header("webhook-timestamp"), genuine, genuine.body()))
        .as("the genuine request again")
        .isEqualTo(204);
    assertThat(handled).hasValue(1);
  }

  private static int post(
      TestReceiver receiver, String timestamp, TestReceiver.Received like, byte[] body)
      throws Exception {
    return post(
        receiver, timestamp, like.header("webhook-id"), like.header("webhook-signature"), body);
  }

  private static int post(
      TestReceiver receiver, String timestamp, String id, String signature, byte[] body)
      throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(receiver.url())
            .header("content-type", "application/json")
            .header("webhook-id", id)
            .header("webhook-timestamp", timestamp)
            .header("webhook-signature", signature)
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build();
    return HttpClient.newHttpClient()
        .send(request, HttpResponse.BodyHandlers.discarding())
        .statusCode();
  }

  @Test
  void aTargetTheGuardRefuses_isNeverSent_andParkedWithTheReason() throws Exception {
    config.put("events.webhooks.allow-private-targets", "false");
    TestReceiver receiver = receiver(TestReceiver.answering(200));
    subscribe("crm", receiver, Secrets.newSecret());
    start();

    OutboxEvent event = publish();
    dispatcher.deliverDue();

    assertThat(receiver.requests()).isEmpty();
    WebhookDelivery parked = delivery(event, "crm");
    assertThat(parked.status()).isEqualTo(DeliveryStatus.PARKED);
    assertThat(parked.lastError()).contains("refused target", "127.0.0.1", "loopback");
    assertThat(operations.attempts(parked.id()))
        .singleElement()
        .satisfies(
            attempt -> {
              assertThat(attempt.httpStatus()).isNull();
              assertThat(attempt.error()).contains("loopback");
            });
  }

  @Test
  void anUnresolvedHost_aSilentSubscriber_andAClosedPort_areFailedAttempts_retriedThenParked()
      throws Exception {
    config.put("events.webhooks.retry-schedule", "PT0S,PT0.001S");
    config.put("events.webhooks.timeout", "PT0.3S");
    TestReceiver silent =
        receiver(
            TestReceiver.answering(
                request -> {
                  try {
                    Thread.sleep(2_000);
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                  return TestReceiver.Answer.of(200);
                }));
    TestReceiver closed = TestReceiver.answering(200);
    closed.close();
    subscribe("silent", silent, Secrets.newSecret());
    subscribe("closed", closed, Secrets.newSecret());
    config.put("events.webhooks.endpoints", "silent,closed,unknown");
    config.put("events.webhooks.unknown.url", "https://nowhere.invalid/hooks");
    config.put("events.webhooks.unknown.tenants", "*");
    config.put("events.webhooks.unknown.secrets", Secrets.newSecret());
    config.put("events.webhooks.allow-private-targets", "false");
    start();
    // The silent and the closed receivers are on 127.0.0.1; only the unknown host is resolved.
    dispatcher.resolver =
        host -> {
          if (host.equals("127.0.0.1")) {
            return new InetAddress[] {InetAddress.getByName("93.184.216.34")};
          }
          throw new UnknownHostException(host);
        };

    OutboxEvent event = publish();
    for (String endpoint : List.of("silent", "closed", "unknown")) {
      deliverUntil(endpoint + " parked", hasStatus(event, endpoint, DeliveryStatus.PARKED));
    }

    assertThat(operations.attempts(delivery(event, "silent").id()))
        .hasSize(2)
        .allSatisfy(attempt -> assertThat(attempt.error()).contains("no answer within PT0.3S"));
    assertThat(operations.attempts(delivery(event, "closed").id()))
        .hasSize(2)
        .allSatisfy(attempt -> assertThat(attempt.error()).contains("connect"));
    assertThat(operations.attempts(delivery(event, "unknown").id()))
        .hasSize(2)
        .allSatisfy(
            attempt -> assertThat(attempt.error()).contains("cannot resolve nowhere.invalid"));
  }
}
