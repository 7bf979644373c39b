package com.banhang.events.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the webhook deliveries' store promises, on each database it runs on, migrated from the
 * scripts the shop ships: one delivery per event and endpoint however often it is handed over,
 * claims under a lease that skip each other, fenced outcomes with their log, parking and retry, and
 * endpoints that are disabled and re-enabled with their deliveries.
 */
abstract class WebhookDeliveryStoreContract {

  private static final List<String> BOTH = List.of("crm", "erp");
  private static final Duration LEASE = Duration.ofMinutes(1);

  abstract DataSource dataSource();

  JdbcWebhookDeliveryStore store;

  @BeforeEach
  void emptyTables() throws Exception {
    Databases.empty(dataSource());
    store = JdbcWebhookDeliveryStore.forDataSource(dataSource());
  }

  private String record(List<String> endpoints) {
    String eventId = UUID.randomUUID().toString();
    store.record(eventId, "tenant-a", "{\"id\":\"" + eventId + "\"}", endpoints, Duration.ZERO);
    return eventId;
  }

  private static AttemptResult answered(int status) {
    return AttemptResult.answered(status, Optional.empty(), 12);
  }

  @Test
  void anEventGetsOneDeliveryPerEndpoint_andASecondHandOverAddsNothing() {
    String eventId = UUID.randomUUID().toString();
    String body = "{\"specversion\":\"1.0\",\"id\":\"" + eventId + "\",\"data\":{\"ü\":1}}";

    assertThat(store.record(eventId, "tenant-a", body, BOTH, Duration.ZERO)).isEqualTo(2);
    assertThat(store.record(eventId, "tenant-a", body, BOTH, Duration.ZERO)).isZero();
    assertThat(store.record(eventId, "tenant-a", body, List.of("crm", "billing"), Duration.ZERO))
        .isEqualTo(1);

    assertThat(store.deliveriesOf(eventId))
        .extracting(WebhookDelivery::endpoint)
        .containsExactly("billing", "crm", "erp");
    assertThat(store.deliveriesOf(eventId))
        .allSatisfy(
            delivery -> {
              assertThat(delivery.status()).isEqualTo(DeliveryStatus.PENDING);
              assertThat(delivery.attempts()).isZero();
              assertThat(delivery.tenantId()).isEqualTo("tenant-a");
              assertThat(delivery.createdAt()).isNotNull();
              assertThat(delivery.deliveredAt()).isNull();
            });
    List<ClaimedDelivery> claimed = store.claim("node-a", BOTH, 10, LEASE);
    assertThat(claimed).extracting(ClaimedDelivery::body).containsOnly(body);
    assertThat(claimed).extracting(ClaimedDelivery::eventId).containsOnly(eventId);
  }

  @Test
  void aClaimTakesDueDeliveriesOfTheGivenEndpoints_once_andCountsTheAttempt() {
    String now = record(BOTH);
    String later = UUID.randomUUID().toString();
    store.record(later, "tenant-a", "{}", List.of("crm"), Duration.ofMinutes(5));

    List<ClaimedDelivery> claimed = store.claim("node-a", List.of("crm"), 10, LEASE);

    assertThat(claimed).extracting(ClaimedDelivery::eventId).containsExactly(now);
    assertThat(claimed.get(0).endpoint()).isEqualTo("crm");
    assertThat(claimed.get(0).attempts()).isEqualTo(1);
    assertThat(store.claim("node-b", List.of("crm"), 10, LEASE)).isEmpty();
    assertThat(store.claim("node-b", BOTH, 10, LEASE))
        .extracting(ClaimedDelivery::endpoint)
        .containsExactly("erp");
    assertThat(store.claim("node-b", List.of(), 10, LEASE)).isEmpty();
  }

  @Test
  void aLeaseThatRanOut_isTakenOver_andTheSlowDispatcherCanNoLongerRecordIt() throws Exception {
    record(List.of("crm"));
    ClaimedDelivery slow = store.claim("slow", List.of("crm"), 10, Duration.ofMillis(200)).get(0);
    assertThat(store.claim("other", List.of("crm"), 10, LEASE)).isEmpty();

    Thread.sleep(400);
    List<ClaimedDelivery> takenOver = store.claim("other", List.of("crm"), 10, LEASE);

    assertThat(takenOver).extracting(ClaimedDelivery::id).containsExactly(slow.id());
    assertThat(takenOver.get(0).attempts()).isEqualTo(2);
    assertThat(store.markDelivered(slow, "slow", answered(200))).isFalse();
    assertThat(store.markDelivered(takenOver.get(0), "other", answered(204))).isTrue();
    WebhookDelivery delivered = store.find(slow.id()).orElseThrow();
    assertThat(delivered.status()).isEqualTo(DeliveryStatus.DELIVERED);
    assertThat(delivered.lastStatus()).isEqualTo(204);
    assertThat(delivered.deliveredAt()).isNotNull();
    // Both requests were really sent: both are in the log.
    assertThat(store.attempts(slow.id()))
        .extracting(DeliveryAttempt::httpStatus)
        .containsExactlyInAnyOrder(200, 204);
  }

  @Test
  void aFailedDeliveryIsDueAgainAfterItsDelay_withItsAttemptLogged() throws Exception {
    record(List.of("crm"));
    ClaimedDelivery first = store.claim("node-a", List.of("crm"), 10, LEASE).get(0);

    assertThat(store.markFailed(first, "node-a", answered(503), Duration.ofMillis(300))).isTrue();

    assertThat(store.claim("node-a", List.of("crm"), 10, LEASE)).isEmpty();
    Thread.sleep(500);
    ClaimedDelivery second = store.claim("node-a", List.of("crm"), 10, LEASE).get(0);
    assertThat(second.attempts()).isEqualTo(2);
    assertThat(store.markFailed(second, "node-a", AttemptResult.failed("no answer", 40), LEASE))
        .isTrue();

    WebhookDelivery delivery = store.find(first.id()).orElseThrow();
    assertThat(delivery.status()).isEqualTo(DeliveryStatus.PENDING);
    assertThat(delivery.lastStatus()).isNull();
    assertThat(delivery.lastError()).isEqualTo("no answer");
    List<DeliveryAttempt> attempts = store.attempts(first.id());
    assertThat(attempts).extracting(DeliveryAttempt::number).containsExactly(1, 2);
    assertThat(attempts).extracting(DeliveryAttempt::httpStatus).containsExactly(503, null);
    assertThat(attempts)
        .extracting(DeliveryAttempt::error)
        .containsExactly("HTTP 503", "no answer");
    assertThat(attempts).extracting(DeliveryAttempt::durationMillis).containsExactly(12L, 40L);
    assertThat(attempts.get(0).attemptedAt()).isBefore(attempts.get(1).attemptedAt());
  }

  @Test
  void aParkedDeliveryIsListed_andARetryMakesItDueNowWithItsAttemptsFromZero() {
    String eventId = record(List.of("crm"));
    ClaimedDelivery claimed = store.claim("node-a", List.of("crm"), 10, LEASE).get(0);

    assertThat(store.markParked(claimed, "node-a", answered(500))).isTrue();

    assertThat(store.claim("node-a", List.of("crm"), 10, LEASE)).isEmpty();
    assertThat(store.parked(10))
        .singleElement()
        .satisfies(
            parked -> {
              assertThat(parked.eventId()).isEqualTo(eventId);
              assertThat(parked.status()).isEqualTo(DeliveryStatus.PARKED);
              assertThat(parked.lastError()).isEqualTo("HTTP 500");
              assertThat(parked.lastStatus()).isEqualTo(500);
            });
    assertThat(store.parked(0)).isEmpty();

    assertThat(store.retry(claimed.id())).isTrue();
    assertThat(store.retry(claimed.id())).isFalse();
    assertThat(store.parked(10)).isEmpty();
    List<ClaimedDelivery> again = store.claim("node-a", List.of("crm"), 10, LEASE);
    assertThat(again).extracting(ClaimedDelivery::id).containsExactly(claimed.id());
    assertThat(again.get(0).attempts()).isEqualTo(1);
  }

  @Test
  void goneDisablesTheEndpoint_itsDeliveriesWait_andReEnablingResumesThem() {
    String first = record(List.of("crm"));
    String second = record(BOTH);
    ClaimedDelivery claimed = store.claim("node-a", List.of("crm"), 1, LEASE).get(0);

    assertThat(store.markGone(claimed, "node-a", answered(410), "HTTP 410 Gone")).isTrue();

    assertThat(store.disabledEndpoints())
        .singleElement()
        .satisfies(
            endpoint -> {
              assertThat(endpoint.endpoint()).isEqualTo("crm");
              assertThat(endpoint.reason()).isEqualTo("HTTP 410 Gone");
              assertThat(endpoint.disabledAt()).isNotNull();
            });
    assertThat(store.deliveriesOf(first))
        .extracting(WebhookDelivery::status)
        .containsExactly(DeliveryStatus.DISABLED);
    assertThat(store.deliveriesOf(second))
        .extracting(WebhookDelivery::endpoint, WebhookDelivery::status)
        .containsExactly(
            tuple("crm", DeliveryStatus.DISABLED), tuple("erp", DeliveryStatus.PENDING));
    // Only the other endpoint's delivery is claimable; a new event for the disabled one waits too.
    String third = record(List.of("crm"));
    assertThat(store.deliveriesOf(third))
        .extracting(WebhookDelivery::status)
        .containsExactly(DeliveryStatus.DISABLED);
    assertThat(store.claim("node-a", BOTH, 10, LEASE))
        .extracting(ClaimedDelivery::endpoint)
        .containsExactly("erp");

    assertThat(store.enable("crm")).isTrue();
    assertThat(store.enable("crm")).isFalse();
    assertThat(store.disabledEndpoints()).isEmpty();
    List<ClaimedDelivery> resumed = store.claim("node-a", List.of("crm"), 10, LEASE);
    assertThat(resumed)
        .extracting(ClaimedDelivery::eventId)
        .containsExactlyInAnyOrder(first, second, third);
    assertThat(resumed).extracting(ClaimedDelivery::attempts).containsOnly(1);
  }

  @Test
  void anOperatorDisablesAnEndpointOnce_andAParkedDeliveryRetriedMeanwhileWaitsForIt() {
    String eventId = record(List.of("crm"));
    ClaimedDelivery claimed = store.claim("node-a", List.of("crm"), 10, LEASE).get(0);
    store.markParked(claimed, "node-a", answered(500));

    assertThat(store.disable("crm", "subscriber asked for a pause")).isTrue();
    assertThat(store.disable("crm", "again")).isFalse();
    assertThat(store.disabledEndpoints())
        .extracting(DisabledEndpoint::reason)
        .containsExactly("subscriber asked for a pause");

    assertThat(store.retry(claimed.id())).isTrue();
    assertThat(store.deliveriesOf(eventId))
        .extracting(WebhookDelivery::status)
        .containsExactly(DeliveryStatus.DISABLED);
    assertThat(store.claim("node-a", List.of("crm"), 10, LEASE)).isEmpty();

    store.enable("crm");
    assertThat(store.claim("node-a", List.of("crm"), 10, LEASE)).hasSize(1);
  }

  /**
   * Two dispatchers on real threads, each with its own connections, send 60 deliveries written
   * while they run: each is claimed, and delivered, exactly once.
   */
  @Test
  void twoDispatchersAtOnce_claimEveryDeliveryOnce() throws Exception {
    int events = 30;
    List<String> sent = Collections.synchronizedList(new ArrayList<>());
    ExecutorService threads = Executors.newFixedThreadPool(3);
    try {
      Future<?> writer =
          threads.submit(
              () -> {
                for (int i = 0; i < events; i++) {
                  record(BOTH);
                }
              });
      List<Future<?>> dispatchers = new ArrayList<>();
      for (String owner : List.of("node-a", "node-b")) {
        dispatchers.add(
            threads.submit(
                () -> {
                  JdbcWebhookDeliveryStore own =
                      JdbcWebhookDeliveryStore.forDataSource(dataSource());
                  int idle = 0;
                  while (idle < 20 || !writer.isDone()) {
                    List<ClaimedDelivery> batch = own.claim(owner, BOTH, 7, LEASE);
                    idle = batch.isEmpty() ? idle + 1 : 0;
                    for (ClaimedDelivery delivery : batch) {
                      sent.add(delivery.id());
                      assertThat(own.markDelivered(delivery, owner, answered(200))).isTrue();
                    }
                    Thread.sleep(batch.isEmpty() ? 10 : 0);
                  }
                  return null;
                }));
      }
      writer.get(60, TimeUnit.SECONDS);
      for (Future<?> dispatcher : dispatchers) {
        dispatcher.get(120, TimeUnit.SECONDS);
      }
    } finally {
      threads.shutdownNow();
    }

    assertThat(sent).hasSize(events * 2).doesNotHaveDuplicates();
    assertThat(Set.copyOf(sent))
        .allSatisfy(
            id ->
                assertThat(store.find(id).orElseThrow().status())
                    .isEqualTo(DeliveryStatus.DELIVERED));
  }
}
