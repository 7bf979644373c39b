package com.banhang.events.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import com.banhang.events.EventEnvelope;
import com.banhang.events.OutboxEvent;
import com.banhang.events.TestDataSource;
import java.net.InetAddress;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The relay's hand-over: one delivery per endpoint that receives the event's tenant, holding the
 * event's CloudEvents JSON; a second hand-over adds nothing; a failure fails the stage so that the
 * relay hands it over again.
 */
class WebhookTransportTest {

  private static DataSource dataSource;

  private final Map<String, String> config = new HashMap<>();
  private JdbcWebhookDeliveryStore store;

  @BeforeAll
  static void createDatabase() {
    dataSource = Databases.h2();
  }

  @BeforeEach
  void configure() throws Exception {
    Databases.empty(dataSource);
    store = JdbcWebhookDeliveryStore.forDataSource(dataSource);
    config.put("events.source", "urn:test:shop");
    config.put("events.webhooks.endpoints", "crm,erp,all");
    endpoint("crm", "tenant-a");
    endpoint("erp", "tenant-b");
    endpoint("all", "*");
  }

  private void endpoint(String name, String tenants) {
    config.put("events.webhooks." + name + ".url", "https://" + name + ".example/hooks");
    config.put("events.webhooks." + name + ".tenants", tenants);
    config.put("events.webhooks." + name + ".secrets", Secrets.newSecret());
  }

  private WebhookTransport transport(WebhookDeliveryStore store) {
    WebhookTransport transport = new WebhookTransport();
    transport.configuration =
        new WebhookConfiguration(
            WebhookSettings.read(
                name -> Optional.ofNullable(config.get(name)),
                host -> new InetAddress[] {InetAddress.getByName("93.184.216.34")}));
    transport.store = store;
    return transport;
  }

  static OutboxEvent event(String tenant) {
    return new OutboxEvent(
        UUID.randomUUID().toString(),
        "order",
        "o-1",
        3,
        "OrderPaid",
        tenant,
        "{\"orderId\":\"o-1\",\"total\":\"12.50\"}",
        Instant.parse("2026-12-06T10:15:30.123Z"),
        1);
  }

  @Test
  void anEventGoesToEveryEndpointReceivingItsTenant_withItsCloudEventsJson() throws Exception {
    OutboxEvent event = event("tenant-a");
    WebhookTransport transport = transport(store);

    transport.publish(event).toCompletableFuture().get();

    assertThat(transport.name()).isEqualTo("webhooks");
    assertThat(transport.enabled()).isTrue();
    assertThat(store.deliveriesOf(event.id()))
        .extracting(WebhookDelivery::endpoint)
        .containsExactly("all", "crm");
    assertThat(store.claim("test", List.of("crm", "all"), 10, Duration.ofMinutes(1)))
        .extracting(ClaimedDelivery::body)
        .containsOnly(EventEnvelope.json(event, "urn:test:shop"));
  }

  @Test
  void aSecondHandOverOfTheSameEventAddsNothing() throws Exception {
    OutboxEvent event = event("tenant-b");
    WebhookTransport transport = transport(store);

    transport.publish(event).toCompletableFuture().get();
    transport.publish(event).toCompletableFuture().get();

    assertThat(store.deliveriesOf(event.id()))
        .extracting(WebhookDelivery::endpoint)
        .containsExactly("all", "erp");
  }

  @Test
  void anEventNoEndpointReceives_completesWithNothingWritten() throws Exception {
    config.put("events.webhooks.endpoints", "crm");
    OutboxEvent event = event("tenant-z");

    transport(store).publish(event).toCompletableFuture().get();

    assertThat(store.deliveriesOf(event.id())).isEmpty();
  }

  @Test
  void withoutEndpointsTheTransportIsDisabled() {
    config.put("events.webhooks.endpoints", "");

    assertThat(transport(store).enabled()).isFalse();
  }

  @Test
  void aDatabaseThatFails_failsTheStage_soThatTheRelayHandsTheEventOverAgain() {
    WebhookDeliveryStore failing = JdbcWebhookDeliveryStore.forDataSource(failingAfterFirst());

    CompletableFuture<Void> stage =
        transport(failing).publish(event("tenant-a")).toCompletableFuture();

    assertThat(stage).isCompletedExceptionally();
  }

  /** Answers the store's first connection (its dialect), then fails. */
  private static DataSource failingAfterFirst() {
    AtomicBoolean first = new AtomicBoolean(true);
    return TestDataSource.handingOut(
        () -> {
          if (first.getAndSet(false)) {
            return dataSource.getConnection();
          }
          throw new SQLException("database down");
        });
  }
}
