package com.banhang.gateway.sandbox.webhook;

import static com.banhang.gateway.sandbox.webhook.StandardWebhookSignerTest.SECRET_NEW;
import static com.banhang.gateway.sandbox.webhook.StandardWebhookSignerTest.SECRET_OLD;
import static com.banhang.gateway.sandbox.webhook.StandardWebhookSignerTest.handSignature;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import com.banhang.gateway.sandbox.MutableClock;
import com.banhang.gateway.sandbox.charge.Charge;
import com.banhang.gateway.sandbox.charge.ChargeCommitHook;
import com.banhang.gateway.sandbox.charge.ChargeRepository;
import com.banhang.gateway.sandbox.charge.ChargeStatus;
import com.banhang.gateway.sandbox.charge.ChargeStoreException;
import com.banhang.gateway.sandbox.fault.WebhookFaultControl;
import com.banhang.gateway.sandbox.fault.WebhookFaultSettings;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

/**
 * The dispatcher's rules on in-memory H2 with a recording transport and a clock the test moves: the
 * event is written with its charge or not at all, retried with backoff under one id, and the
 * delivery faults do what they say.
 */
class ChargeWebhookDispatcherTest {

  private static final URI URL = URI.create("http://localhost:1/webhooks");

  private final MutableClock clock = new MutableClock(Instant.parse("2026-12-07T10:00:00Z"));
  private final DataSource dataSource = freshDatabase();
  private final WebhookRepository repository = new WebhookRepository(dataSource);
  private final ChargeWebhookSettings settings =
      new ChargeWebhookSettings(
          Optional.of(URL),
          List.of(SECRET_OLD, SECRET_NEW),
          Duration.ofSeconds(2),
          Duration.ofMillis(50),
          Duration.ofMillis(200),
          Duration.ofMillis(400),
          4);
  private final RecordingTransport transport = new RecordingTransport();
  private final ChargeWebhookDispatcher dispatcher =
      new ChargeWebhookDispatcher(repository, transport, settings, clock);
  private final WebhookFaultControl faults = new WebhookFaultControl(WebhookFaultSettings.NONE);
  private final WebhookEventRecorder recorder =
      new WebhookEventRecorder(settings, repository, faults, dispatcher);
  private final ChargeRepository charges = new ChargeRepository(dataSource, recorder);

  private static DataSource freshDatabase() {
    JdbcDataSource dataSource = new JdbcDataSource();
    dataSource.setURL("jdbc:h2:mem:webhooks-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
    dataSource.setUser("sa");
    ChargeRepository schema = new ChargeRepository(dataSource);
    schema.createSchemaIfAbsent();
    new WebhookRepository(dataSource).createSchemaIfAbsent();
    return dataSource;
  }

  private Charge charge(String key, String paymentMethod) {
    return new Charge(
        "ch_" + UUID.randomUUID().toString().replace("-", ""),
        ChargeStatus.forPaymentMethod(paymentMethod),
        5000,
        "VND",
        "order-" + key,
        paymentMethod,
        key,
        "hash-" + key,
        clock.instant());
  }

  /** Inserts a charge as the charge service does: the commit, then the hook's after-commit. */
  private Charge charged(String key) {
    Charge charge = charge(key, "pm_card_ok");
    assertThat(charges.insert(charge)).isTrue();
    recorder.afterCommit(charge);
    return charge;
  }

  private WebhookEvent eventOf(Charge charge) {
    return repository.findByChargeId(charge.id()).orElseThrow();
  }

  private List<WebhookAttempt> attemptsOf(WebhookEvent event) {
    return repository.attemptsOf(List.of(event.id())).get(event.id());
  }

  @Test
  void aCommittedChargeHasExactlyOneEventAndALosingInsertLeavesNone() {
    Charge first = charged("key-1");
    Charge second = charge("key-1", "pm_card_ok");

    assertThat(charges.insert(second)).isFalse();

    WebhookEvent event = eventOf(first);
    assertThat(event.id())
        .isEqualTo(WebhookEvents.idFor(WebhookEventType.CHARGE_SUCCEEDED, first.id()));
    assertThat(event.state()).isEqualTo(WebhookEventState.PENDING);
    assertThat(repository.findByChargeId(second.id())).isEmpty();
    assertThat(repository.createdSince(Instant.EPOCH, 10)).hasSize(1);
  }

  @Test
  void anEventThatCannotBeWrittenRollsItsChargeBack() {
    ChargeCommitHook failing =
        new ChargeCommitHook() {
          @Override
          public void inTransaction(Connection connection, Charge charge) throws SQLException {
            recorder.inTransaction(connection, charge);
            throw new SQLException("disk full", "53100");
          }

          @Override
          public void afterCommit(Charge charge) {}
        };
    Charge charge = charge("key-rollback", "pm_card_ok");

    assertThatThrownBy(() -> new ChargeRepository(dataSource, failing).insert(charge))
        .isInstanceOf(ChargeStoreException.class);

    assertThat(charges.findById(charge.id())).isEmpty();
    assertThat(repository.findByChargeId(charge.id())).isEmpty();
  }

  @Test
  void aDeclineIsDeliveredAsChargeFailed() {
    Charge declined = charge("key-declined", "pm_card_declined");
    charges.insert(declined);

    dispatcher.dispatchDue();

    assertThat(transport.sent).hasSize(1);
    assertThat(transport.sent.get(0).body()).contains("\"type\":\"charge.failed\"");
    assertThat(eventOf(declined).type()).isEqualTo(WebhookEventType.CHARGE_FAILED);
  }

  @Test
  void aDeliveryIsSignedWithEverySecretAsTheSpecificationSays() throws Exception {
    Charge charge = charged("key-signed");

    dispatcher.dispatchDue();

    Sent sent = transport.sent.get(0);
    String id = eventOf(charge).id();
    long timestamp = clock.instant().getEpochSecond();
    assertThat(sent.url()).isEqualTo(URL);
    assertThat(sent.headers().get("webhook-id")).isEqualTo(id);
    assertThat(sent.headers().get("webhook-timestamp")).isEqualTo(Long.toString(timestamp));
    assertThat(sent.headers().get("webhook-signature"))
        .isEqualTo(
            handSignature(SECRET_OLD, id, timestamp, sent.body())
                + " "
                + handSignature(SECRET_NEW, id, timestamp, sent.body()));
  }

  @Test
  void failuresAreRetriedWithBackoffUnderTheSameIdUntilTaken() {
    Charge charge = charged("key-retry");
    transport.answers.addAll(List.of(500, 500, 204));

    dispatcher.dispatchDue();
    assertThat(transport.sent).hasSize(1);
    clock.advance(Duration.ofMillis(199));
    dispatcher.dispatchDue();
    assertThat(transport.sent).as("not due before the first backoff").hasSize(1);
    clock.advance(Duration.ofMillis(1));
    dispatcher.dispatchDue();
    assertThat(transport.sent).hasSize(2);
    clock.advance(Duration.ofMillis(399));
    dispatcher.dispatchDue();
    assertThat(transport.sent).as("the backoff doubled").hasSize(2);
    clock.advance(Duration.ofMillis(1));
    dispatcher.dispatchDue();

    assertThat(transport.sent).hasSize(3);
    assertThat(transport.sent)
        .extracting(sent -> sent.headers().get("webhook-id"))
        .containsOnly(eventOf(charge).id());
    assertThat(eventOf(charge).state()).isEqualTo(WebhookEventState.DELIVERED);
    assertThat(attemptsOf(eventOf(charge)))
        .extracting(WebhookAttempt::number, WebhookAttempt::kind, WebhookAttempt::statusCode)
        .containsExactly(
            tuple(1, WebhookAttemptKind.DELIVERY, 500),
            tuple(2, WebhookAttemptKind.DELIVERY, 500),
            tuple(3, WebhookAttemptKind.DELIVERY, 204));
    clock.advance(Duration.ofMinutes(5));
    dispatcher.dispatchDue();
    assertThat(transport.sent).as("a delivered event is not sent again").hasSize(3);
  }

  @Test
  void aTimeoutIsAFailedAttemptWithItsErrorRecorded() {
    Charge charge = charged("key-timeout");
    transport.failures.add(new HttpTimeoutException("request timed out"));

    dispatcher.dispatchDue();

    WebhookAttempt attempt = attemptsOf(eventOf(charge)).get(0);
    assertThat(attempt.statusCode()).isNull();
    assertThat(attempt.error()).contains("HttpTimeoutException");
    assertThat(eventOf(charge).failedAttempts()).isEqualTo(1);
    assertThat(eventOf(charge).state()).isEqualTo(WebhookEventState.PENDING);
  }

  @Test
  void afterTheLastAttemptTheEventIsGivenUpAndOnlyAResendSendsIt() {
    Charge charge = charged("key-give-up");
    transport.answers.addAll(List.of(503, 503, 503, 503));
    for (int i = 0; i < 6; i++) {
      dispatcher.dispatchDue();
      clock.advance(Duration.ofSeconds(1));
    }
    assertThat(transport.sent).hasSize(4);
    assertThat(eventOf(charge).state()).isEqualTo(WebhookEventState.FAILED);

    WebhookAttempt resent = dispatcher.resend(eventOf(charge).id()).orElseThrow();

    assertThat(resent.kind()).isEqualTo(WebhookAttemptKind.RESEND);
    assertThat(resent.statusCode()).isEqualTo(204);
    assertThat(transport.sent).hasSize(5);
    assertThat(transport.sent.get(4).headers().get("webhook-id")).isEqualTo(eventOf(charge).id());
    assertThat(transport.sent.get(4).body()).isEqualTo(transport.sent.get(0).body());
    assertThat(eventOf(charge).state()).isEqualTo(WebhookEventState.DELIVERED);
    assertThat(dispatcher.resend("evt_unknown")).isEmpty();
  }

  @Test
  void aLostFirstAttemptSendsNothingAndTheRetryBringsTheEvent() {
    faults.replace(new WebhookFaultSettings(0, 0, 0, 0, 0, 0, 1, 0, 1));
    Charge charge = charged("key-lost");

    dispatcher.dispatchDue();
    assertThat(transport.sent).isEmpty();
    clock.advance(Duration.ofMillis(200));
    dispatcher.dispatchDue();

    assertThat(transport.sent).hasSize(1);
    assertThat(attemptsOf(eventOf(charge)))
        .extracting(WebhookAttempt::kind)
        .containsExactly(WebhookAttemptKind.LOST, WebhookAttemptKind.DELIVERY);
    assertThat(eventOf(charge).state()).isEqualTo(WebhookEventState.DELIVERED);
  }

  @Test
  void aDuplicateIsTheSameEventOnceMoreAfterItsSuccess() {
    faults.replace(new WebhookFaultSettings(0, 0, 0, 1, 0, 0, 0, 0, 1));
    Charge charge = charged("key-duplicate");

    dispatcher.dispatchDue();

    assertThat(transport.sent).hasSize(2);
    assertThat(transport.sent.get(1).headers().get("webhook-id"))
        .isEqualTo(transport.sent.get(0).headers().get("webhook-id"));
    assertThat(transport.sent.get(1).body()).isEqualTo(transport.sent.get(0).body());
    assertThat(attemptsOf(eventOf(charge)))
        .extracting(WebhookAttempt::kind)
        .containsExactly(WebhookAttemptKind.DELIVERY, WebhookAttemptKind.DUPLICATE);
  }

  @Test
  void aHeldEventGoesRightAfterALaterOne() {
    faults.replace(new WebhookFaultSettings(0, 0, 0, 0, 1, 60_000, 0, 0, 1));
    Charge first = charged("key-held");
    clock.advance(Duration.ofMillis(5));
    dispatcher.dispatchDue();
    assertThat(transport.sent).as("held until a later event goes").isEmpty();

    faults.replace(WebhookFaultSettings.NONE);
    Charge second = charged("key-later");
    dispatcher.dispatchDue();

    assertThat(transport.sent)
        .extracting(sent -> sent.headers().get("webhook-id"))
        .containsExactly(eventOf(second).id(), eventOf(first).id());
  }

  @Test
  void aHeldEventWithoutALaterOneGoesWhenItsHoldEnds() {
    faults.replace(new WebhookFaultSettings(0, 0, 0, 0, 1, 3000, 0, 0, 1));
    charged("key-held-alone");

    clock.advance(Duration.ofMillis(2999));
    dispatcher.dispatchDue();
    assertThat(transport.sent).isEmpty();
    clock.advance(Duration.ofMillis(1));
    dispatcher.dispatchDue();

    assertThat(transport.sent).hasSize(1);
  }

  @Test
  void aDelayedEventIsNotDueBeforeItsDelay() {
    faults.replace(new WebhookFaultSettings(1, 90_000, 90_000, 0, 0, 0, 0, 0, 1));
    charged("key-delayed");

    clock.advance(Duration.ofSeconds(89));
    dispatcher.dispatchDue();
    assertThat(transport.sent).isEmpty();
    clock.advance(Duration.ofSeconds(1));
    dispatcher.dispatchDue();

    assertThat(transport.sent).hasSize(1);
  }

  @Test
  void anEarlyEventIsDeliveredByTheChargeCallAndNotAgainByTheSchedule() {
    faults.replace(new WebhookFaultSettings(1, 90_000, 90_000, 0, 1, 60_000, 0, 1, 1));

    Charge charge = charged("key-early");

    assertThat(transport.sent).as("sent from the charge call, delay and hold ignored").hasSize(1);
    assertThat(eventOf(charge).state()).isEqualTo(WebhookEventState.DELIVERED);
    clock.advance(Duration.ofMinutes(5));
    dispatcher.dispatchDue();
    assertThat(transport.sent).hasSize(1);
  }

  @Test
  void anEventNotDrawnEarlyIsLeftToTheSchedule() {
    charged("key-not-early");

    assertThat(transport.sent).isEmpty();
    dispatcher.dispatchDue();
    assertThat(transport.sent).hasSize(1);
  }

  record Sent(URI url, Map<String, String> headers, String body) {}

  /** Answers 204 unless told otherwise, and keeps every request. */
  static final class RecordingTransport implements ChargeWebhookTransport {
    final List<Sent> sent = new ArrayList<>();
    final Deque<Integer> answers = new ArrayDeque<>();
    final Deque<IOException> failures = new ArrayDeque<>();

    @Override
    public int post(URI url, Map<String, String> headers, String body, Duration timeout)
        throws IOException {
      sent.add(new Sent(url, Map.copyOf(headers), body));
      if (!failures.isEmpty()) {
        throw failures.poll();
      }
      return answers.isEmpty() ? 204 : answers.poll();
    }
  }
}
