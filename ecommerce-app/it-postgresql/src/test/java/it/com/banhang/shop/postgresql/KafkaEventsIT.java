package it.com.banhang.shop.postgresql;

import static it.com.banhang.shop.ShopApi.newKey;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import it.com.banhang.shop.Payments;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The shop's events on a real Kafka broker (the suite's, which the build starts before the shop,
 * KafkaBrokerLauncher): each event's CloudEvents envelope as a record keyed by its order, in the
 * order of the order's events; and nothing lost, nothing reordered, when the broker goes away for a
 * while under orders and payments.
 */
class KafkaEventsIT {

  private static final String TOPIC = "shop-events";
  private static final String SOURCE = "urn:banhang:shop";

  /** An event is on the topic a relay round (a second) after its transaction, unless retried. */
  private static final Duration ARRIVAL = Duration.ofSeconds(60);

  /**
   * After the outage: the relay retries each failed event with a growing backoff (1 s, 2 s, 4 s,
   * ... with jitter), and each attempt made during the outage waited up to its time bound first.
   */
  private static final Duration CATCH_UP = Duration.ofSeconds(180);

  private static final Duration OUTAGE = Duration.ofSeconds(10);
  private static final int CUSTOMERS = 3;
  private static final int ORDERS_PER_CUSTOMER = 20;

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
    List<JsonPath> events = firstOfEachId(ofOrder);
    assertThat(events)
        .extracting(e -> e.getString("type"), e -> e.getLong("aggregatesequence"))
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("com.banhang.shop.OrderPlaced", 1L),
            org.assertj.core.groups.Tuple.tuple("com.banhang.shop.PaymentCaptured", 2L));
    assertThat(events).extracting(e -> e.getString("id")).isEqualTo(outboxIds(orderId));
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

  @Test
  void aBrokerOutageUnderOrdersAndPayments_losesNoEvent_andKeepsEachOrdersOrder() throws Exception {
    ConcurrentLinkedQueue<String> orders = new ConcurrentLinkedQueue<>();
    ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
    CountDownLatch underway = new CountDownLatch(CUSTOMERS * 2);
    ExecutorService customers = Executors.newFixedThreadPool(CUSTOMERS);
    List<Future<?>> storm = new ArrayList<>();
    for (int c = 0; c < CUSTOMERS; c++) {
      String user = c % 2 == 0 ? "alice" : "bob";
      storm.add(
          customers.submit(
              () -> {
                for (int i = 0; i < ORDERS_PER_CUSTOMER; i++) {
                  String orderId = Payments.newOrder(user);
                  orders.add(orderId);
                  // Every fifth order is declined once before it is paid: three events.
                  if (i % 5 == 0) {
                    expect(
                        Payments.pay(user, orderId, newKey(), "pm_card_declined"), 402, failures);
                  }
                  expect(Payments.pay(user, orderId, newKey(), "pm_card_ok"), 201, failures);
                  underway.countDown();
                }
              }));
    }
    try {
      // The outage starts once events are flowing, and the storm goes on through it.
      assertThat(underway.await(60, TimeUnit.SECONDS)).as("the storm got under way").isTrue();
      broker.stop();
      long down = System.nanoTime();
      Thread.sleep(OUTAGE.toMillis());
      broker.restart();
      System.out.printf(
          "Kafka was down %d ms; %d orders created by then%n",
          (System.nanoTime() - down) / 1_000_000, orders.size());
      for (Future<?> customer : storm) {
        customer.get(5, TimeUnit.MINUTES);
      }
    } finally {
      customers.shutdownNow();
      if (!broker.isRunning()) {
        broker.restart(); // the rest of the suite publishes to it
      }
    }
    assertThat(failures).as("answers other than expected").isEmpty();
    assertThat(orders).hasSize(CUSTOMERS * ORDERS_PER_CUSTOMER);

    // The outbox is the truth: every event it holds for these orders must reach the topic.
    Map<String, List<String>> expected = new LinkedHashMap<>();
    for (String orderId : orders) {
      expected.put(orderId, outboxIds(orderId));
    }
    Set<String> expectedIds =
        expected.values().stream().flatMap(List::stream).collect(Collectors.toSet());
    List<ConsumerRecord<String, String>> records;
    try {
      records =
          broker.consume(
              TOPIC,
              CATCH_UP,
              read -> {
                Set<String> seen = new java.util.HashSet<>();
                read.forEach(r -> seen.add(JsonPath.from(r.value()).getString("id")));
                return seen.containsAll(expectedIds);
              });
    } catch (AssertionError e) {
      throw new AssertionError(
          "Not every event arrived; parked in the outbox: " + parkedEvents(orders), e);
    }

    int duplicates = 0;
    for (Map.Entry<String, List<String>> order : expected.entrySet()) {
      String orderId = order.getKey();
      List<ConsumerRecord<String, String>> ofOrder = ofKey(records, orderId);
      assertThat(ofOrder.stream().map(ConsumerRecord::partition).distinct())
          .as("the partitions of order %s's records", orderId)
          .hasSize(1);
      List<JsonPath> all = ofOrder.stream().map(r -> JsonPath.from(r.value())).toList();
      // In offset order the sequence never goes back: a copy sent again comes before the next.
      List<Long> sequences = all.stream().map(e -> e.getLong("aggregatesequence")).toList();
      assertThat(sequences).as("order %s's sequences in offset order", orderId).isSorted();
      // A copy is the same event: one id per sequence number.
      Map<Long, Set<String>> idsBySequence = new LinkedHashMap<>();
      all.forEach(
          e ->
              idsBySequence
                  .computeIfAbsent(e.getLong("aggregatesequence"), s -> new LinkedHashSet<>())
                  .add(e.getString("id")));
      assertThat(idsBySequence.values())
          .as("ids per sequence of order %s", orderId)
          .allSatisfy(ids -> assertThat(ids).hasSize(1));
      List<JsonPath> events = firstOfEachId(ofOrder);
      assertThat(events)
          .extracting(e -> e.getLong("aggregatesequence"))
          .as("order %s's events, each once", orderId)
          .containsExactlyElementsOf(sequence(order.getValue().size()));
      assertThat(events).extracting(e -> e.getString("id")).isEqualTo(order.getValue());
      assertThat(events)
          .filteredOn(e -> e.getString("type").equals("com.banhang.shop.PaymentCaptured"))
          .as("order %s's captures", orderId)
          .hasSize(1);
      assertThat(events.get(0).getString("type")).isEqualTo("com.banhang.shop.OrderPlaced");
      duplicates += all.size() - events.size();
    }
    System.out.printf(
        "%d events of %d orders on Kafka after the outage, %d records sent twice%n",
        expectedIds.size(), expected.size(), duplicates);
  }

  private static void expect(Response response, int status, Collection<String> failures) {
    if (response.statusCode() != status) {
      failures.add(status + " expected: " + response.statusCode() + " " + response.asString());
    }
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

  /** The records' envelopes in offset order, a copy sent again left out. */
  private static List<JsonPath> firstOfEachId(List<ConsumerRecord<String, String>> records) {
    Set<String> seen = new java.util.HashSet<>();
    List<JsonPath> first = new ArrayList<>();
    for (ConsumerRecord<String, String> record : records) {
      JsonPath event = JsonPath.from(record.value());
      if (seen.add(event.getString("id"))) {
        first.add(event);
      }
    }
    return first;
  }

  private static List<Long> sequence(int length) {
    List<Long> numbers = new ArrayList<>();
    for (long n = 1; n <= length; n++) {
      numbers.add(n);
    }
    return numbers;
  }

  /** The order's events as the outbox holds them, by sequence. */
  private static List<String> outboxIds(String orderId) {
    return query(
        "SELECT id FROM outbox_event WHERE aggregate_type = 'order' AND aggregate_id = ?"
            + " ORDER BY aggregate_sequence",
        orderId);
  }

  private static List<String> parkedEvents(Collection<String> orderIds) {
    List<String> parked = new ArrayList<>();
    for (String orderId : orderIds) {
      parked.addAll(
          query(
              "SELECT id || ' ' || type || ': ' || coalesce(last_error, '') FROM outbox_event"
                  + " WHERE aggregate_type = 'order' AND aggregate_id = ?"
                  + " AND parked_at IS NOT NULL",
              orderId));
    }
    return parked;
  }

  private static List<String> query(String sql, String parameter) {
    try (Connection connection =
            DriverManager.getConnection(
                System.getProperty("shop.jdbc.url"),
                System.getProperty("shop.jdbc.user"),
                System.getProperty("shop.jdbc.password"));
        PreparedStatement statement = connection.prepareStatement(sql)) {
      statement.setString(1, parameter);
      List<String> values = new ArrayList<>();
      try (ResultSet rs = statement.executeQuery()) {
        while (rs.next()) {
          values.add(rs.getString(1));
        }
      }
      return values;
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read the shop's database", e);
    }
  }
}
