package it.com.banhang.shop.postgresql;

import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.path.json.JsonPath;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * What the Kafka topic must hold of some orders' events, with the outbox as the truth: every event
 * the outbox holds for them, keyed by its order, each order's in one partition and in ascending
 * sequence without a gap; a record sent twice is the same event (same id) and comes before the next
 * one.
 */
final class OrderStreams {

  static final String TOPIC = "shop-events";

  private OrderStreams() {}

  /** What was checked: events, orders, and records the relay sent twice. */
  record Checked(int events, int orders, int duplicates) {}

  /**
   * Waits (at most {@code catchUp}) until every event the outbox holds for {@code orderIds} is on
   * the topic, then checks each order's stream.
   */
  static Checked assertEveryEventOnTheTopicInOrder(
      KafkaBroker broker, Collection<String> orderIds, Duration catchUp) {
    Map<String, List<String>> expected = new LinkedHashMap<>();
    for (String orderId : orderIds) {
      expected.put(orderId, outboxIds(orderId));
    }
    Set<String> expectedIds =
        expected.values().stream().flatMap(List::stream).collect(Collectors.toSet());
    List<ConsumerRecord<String, String>> records;
    try {
      records =
          broker.consume(
              TOPIC,
              catchUp,
              read -> {
                Set<String> seen = new HashSet<>();
                read.forEach(r -> seen.add(JsonPath.from(r.value()).getString("id")));
                return seen.containsAll(expectedIds);
              });
    } catch (AssertionError e) {
      throw new AssertionError(
          "Not every event arrived; parked in the outbox: " + parkedEvents(orderIds), e);
    }
    int duplicates = 0;
    for (Map.Entry<String, List<String>> order : expected.entrySet()) {
      String orderId = order.getKey();
      List<ConsumerRecord<String, String>> ofOrder =
          records.stream().filter(r -> orderId.equals(r.key())).toList();
      assertThat(ofOrder.stream().map(ConsumerRecord::partition).distinct())
          .as("the partitions of order %s's records", orderId)
          .hasSize(1);
      List<JsonPath> all = ofOrder.stream().map(r -> JsonPath.from(r.value())).toList();
      // In offset order the sequence never goes back: a copy sent again comes before the next.
      assertThat(all.stream().map(e -> e.getLong("aggregatesequence")).toList())
          .as("order %s's sequences in offset order", orderId)
          .isSorted();
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
      List<JsonPath> events = firstOfEachId(all);
      assertThat(events)
          .extracting(e -> e.getLong("aggregatesequence"))
          .as("order %s's events, each once", orderId)
          .containsExactlyElementsOf(sequence(order.getValue().size()));
      assertThat(events).extracting(e -> e.getString("id")).isEqualTo(order.getValue());
      assertThat(events.get(0).getString("type")).isEqualTo("com.banhang.shop.OrderPlaced");
      assertThat(events)
          .filteredOn(e -> e.getString("type").equals("com.banhang.shop.PaymentCaptured"))
          .as("order %s's captures", orderId)
          .hasSizeLessThanOrEqualTo(1);
      duplicates += all.size() - events.size();
    }
    return new Checked(expectedIds.size(), expected.size(), duplicates);
  }

  /** The envelopes in offset order, a copy sent again left out. */
  static List<JsonPath> firstOfEachId(List<JsonPath> events) {
    Set<String> seen = new HashSet<>();
    List<JsonPath> first = new ArrayList<>();
    for (JsonPath event : events) {
      if (seen.add(event.getString("id"))) {
        first.add(event);
      }
    }
    return first;
  }

  /** The orders placed since {@code since}, by the database's clock. */
  static List<String> ordersPlacedSince(Timestamp since) {
    return query("SELECT id FROM shop_order WHERE created_at >= ?", since);
  }

  /** The order's events as the outbox holds them, by sequence. */
  static List<String> outboxIds(String orderId) {
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

  private static List<Long> sequence(int length) {
    List<Long> numbers = new ArrayList<>();
    for (long n = 1; n <= length; n++) {
      numbers.add(n);
    }
    return numbers;
  }

  private static List<String> query(String sql, Object parameter) {
    try (Connection connection =
            DriverManager.getConnection(
                System.getProperty("shop.jdbc.url"),
                System.getProperty("shop.jdbc.user"),
                System.getProperty("shop.jdbc.password"));
        PreparedStatement statement = connection.prepareStatement(sql)) {
      statement.setObject(1, parameter);
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
