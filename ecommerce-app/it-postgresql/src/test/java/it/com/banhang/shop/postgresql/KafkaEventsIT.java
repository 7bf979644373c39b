package it.com.banhang.shop.postgresql;

import static it.com.banhang.shop.ShopApi.newKey;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import it.com.banhang.shop.Payments;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The shop's events on a real Kafka broker (the suite's, which the build starts before the shop,
 * KafkaBrokerLauncher): each event's CloudEvents envelope as a record keyed by its order, in the
 * order of the order's events. The broker stopped for 10 s during a storm over two nodes is
 * TwoNodeStormIT's.
 */
class KafkaEventsIT {

  private static final String TOPIC = "shop-events";
  private static final String SOURCE = "urn:banhang:shop";

  /** An event is on the topic a relay round (a second) after its transaction, unless retried. */
  private static final Duration ARRIVAL = Duration.ofSeconds(60);

  private static KafkaBroker broker;

  @BeforeAll
  static void attachToTheSuitesBroker() throws Exception {
    broker = KafkaBroker.attach(Path.of(System.getProperty("shop.kafka.dir")));
    assertThat(broker.isRunning()).as("the suite's Kafka broker runs").isTrue();
  }

  @Test
  void aPaidOrdersEvents_areCloudEventsOnTheTopic_keyedByTheOrder_inTheirOrder() {
    String orderId = Payments.newOrder("alice");
    Response paid = Payments.pay("alice", orderId, newKey(), "pm_card_ok");
    assertThat(paid.statusCode()).as(paid.asString()).isEqualTo(201);
    String paymentId = paid.path("id");

    List<ConsumerRecord<String, String>> records =
        broker.consume(TOPIC, ARRIVAL, read -> distinctIds(ofKey(read, orderId)).size() >= 2);

    List<ConsumerRecord<String, String>> ofOrder = ofKey(records, orderId);
    assertThat(ofOrder.stream().map(ConsumerRecord::partition).distinct())
        .as("the partitions of order %s's records", orderId)
        .hasSize(1);
    List<JsonPath> events =
        OrderStreams.firstOfEachId(ofOrder.stream().map(r -> JsonPath.from(r.value())).toList());
    assertThat(events)
        .extracting(e -> e.getString("type"), e -> e.getLong("aggregatesequence"))
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("com.banhang.shop.OrderPlaced", 1L),
            org.assertj.core.groups.Tuple.tuple("com.banhang.shop.PaymentCaptured", 2L));
    assertThat(events)
        .extracting(e -> e.getString("id"))
        .isEqualTo(OrderStreams.outboxIds(orderId));
    for (JsonPath event : events) {
      assertThat(event.getString("specversion")).isEqualTo("1.0");
      assertThat(event.getString("source")).isEqualTo(SOURCE);
      assertThat(event.getString("subject")).isEqualTo(orderId);
      assertThat(event.getString("datacontenttype")).isEqualTo("application/json");
      assertThat(event.getString("aggregatetype")).isEqualTo("order");
      assertThat(event.getString("tenantid")).isEqualTo("alice");
      assertThat(Instant.parse(event.getString("time"))).isBefore(Instant.now());
    }
    JsonPath captured = events.get(1);
    assertThat(captured.getString("data.paymentId")).isEqualTo(paymentId);
    assertThat(captured.getString("data.orderId")).isEqualTo(orderId);
    assertThat(captured.getLong("data.amount")).isEqualTo(Payments.TOTAL);
  }

  private static List<ConsumerRecord<String, String>> ofKey(
      List<ConsumerRecord<String, String>> records, String key) {
    return records.stream().filter(r -> key.equals(r.key())).toList();
  }

  private static Set<String> distinctIds(List<ConsumerRecord<String, String>> records) {
    return records.stream()
        .map(r -> JsonPath.from(r.value()).getString("id"))
        .collect(Collectors.toSet());
  }
}
