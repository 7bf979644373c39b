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
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
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

  /** What the checks read of one record: its partition and the envelope's id, sequence, type. */
  private record Envelope(int partition, String id, long sequence, String type) {

    static Envelope of(ConsumerRecord<String, String> record) {
      Map<String, Object> envelope = JsonPath.from(record.value()).getMap("$");
      return new Envelope(
          record.partition(),
          (String) envelope.get("id"),
          ((Number) envelope.get("aggregatesequence")).longValue(),
          (String) envelope.get("type"));
    }
  }

  /**
   * Waits (at most {@code catchUp}) until every event the outbox holds for {@code orderIds} is on
   * the topic, then checks each order's stream.
   */
  static Checked assertEveryEventOnTheTopicInOrder(
      KafkaBroker broker, Collection<String> orderIds, Duration catchUp) {
    Map<String, List<String>> expected = outboxIdsByOrder(orderIds);
    Set<String> expectedIds =
        expected.values().stream().flatMap(List::stream).collect(Collectors.toSet());
    List<ConsumerRecord<String, String>> records;
    try {
      records =
          broker.consume(
              TOPIC,
              catchUp,
              new Predicate<>() {
                // Records only ever add up: each is parsed once, however often this is asked.
                private final Set<String> seen = new HashSet<>();
                private int parsed;

                @Override
                public boolean test(List<ConsumerRecord<String, String>> read) {
                  for (; parsed < read.size(); parsed++) {
                    seen.add(Envelope.of(read.get(parsed)).id());
                  }
                  return seen.containsAll(expectedIds);
                }
              });
    } catch (AssertionError e) {
      throw new AssertionError(
          "Not every event arrived; parked in the outbox: " + parkedEvents(orderIds), e);
    }
    // Each envelope parsed once: JsonPath evaluates every path it is asked for, thousands here.
    Map<String, List<Envelope>> byOrder = new HashMap<>();
    for (ConsumerRecord<String, String> record : records) {
      if (expected.containsKey(record.key())) {
        byOrder.computeIfAbsent(record.key(), k -> new ArrayList<>()).add(Envelope.of(record));
      }
    }
    int duplicates = 0;
    for (Map.Entry<String, List<String>> order : expected.entrySet()) {
      String orderId = order.getKey();
      List<Envelope> all = byOrder.getOrDefault(orderId, List.of());
      assertThat(all.stream().map(Envelope::partition).distinct())
          .as("the partitions of order %s's records", orderId)
          .hasSize(1);
      // In offset order the sequence never goes back: a copy sent again comes before the next.
      assertThat(all.stream().map(Envelope::sequence).toList())
          .as("order %s's sequences in offset order", orderId)
          .isSorted();
      // A copy is the same event: one id per sequence number.
      Map<Long, Set<String>> idsBySequence = new LinkedHashMap<>();
      all.forEach(
          e -> idsBySequence.computeIfAbsent(e.sequence(), s -> new LinkedHashSet<>()).add(e.id()));
      assertThat(idsBySequence.values())
          .as("ids per sequence of order %s", orderId)
          .allSatisfy(ids -> assertThat(ids).hasSize(1));
      Map<String, Envelope> firstOfEachId = new LinkedHashMap<>();
      all.forEach(e -> firstOfEachId.putIfAbsent(e.id(), e));
      List<Envelope> events = List.copyOf(firstOfEachId.values());
      assertThat(events)
          .extracting(Envelope::sequence)
          .as("order %s's events, each once", orderId)
          .containsExactlyElementsOf(sequence(order.getValue().size()));
      assertThat(events).extracting(Envelope::id).isEqualTo(order.getValue());
      assertThat(events.get(0).type()).isEqualTo("com.banhang.shop.OrderPlaced");
      assertThat(events)
          .filteredOn(e -> e.type().equals("com.banhang.shop.PaymentCaptured"))
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

  /**
   * The orders' events as the outbox holds them, by order (in the given order) and sequence: one
   * query, not one per order (a connection each would cost the test seconds).
   */
  static Map<String, List<String>> outboxIdsByOrder(Collection<String> orderIds) {
    Map<String, List<String>> byOrder = new LinkedHashMap<>();
    orderIds.forEach(orderId -> byOrder.put(orderId, new ArrayList<>()));
    for (List<String> row :
        rows(
            "SELECT aggregate_id, id FROM outbox_event WHERE aggregate_type = 'order'"
                + " AND aggregate_id = ANY (?) ORDER BY aggregate_id, aggregate_sequence",
            orderIds)) {
      byOrder.get(row.get(0)).add(row.get(1));
    }
    return byOrder;
  }

  private static List<String> parkedEvents(Collection<String> orderIds) {
    return rows(
            "SELECT id || ' ' || type || ': ' || coalesce(last_error, '') FROM outbox_event"
                + " WHERE aggregate_type = 'order' AND aggregate_id = ANY (?)"
                + " AND parked_at IS NOT NULL",
            orderIds)
        .stream()
        .map(row -> row.get(0))
        .toList();
  }

  private static List<Long> sequence(int length) {
    List<Long> numbers = new ArrayList<>();
    for (long n = 1; n <= length; n++) {
      numbers.add(n);
    }
    return numbers;
  }

  private static List<String> query(String sql, Object parameter) {
    return rows(sql, parameter).stream().map(row -> row.get(0)).toList();
  }

  /** The rows of {@code sql}, each as its columns' texts; a collection binds as an array. */
  private static List<List<String>> rows(String sql, Object parameter) {
    try (Connection connection =
            DriverManager.getConnection(
                System.getProperty("shop.jdbc.url"),
                System.getProperty("shop.jdbc.user"),
                System.getProperty("shop.jdbc.password"));
        PreparedStatement statement = connection.prepareStatement(sql)) {
      if (parameter instanceof Collection<?> values) {
        statement.setArray(1, connection.createArrayOf("varchar", values.toArray()));
      } else {
        statement.setObject(1, parameter);
      }
      List<List<String>> rows = new ArrayList<>();
      try (ResultSet rs = statement.executeQuery()) {
        int columns = rs.getMetaData().getColumnCount();
        while (rs.next()) {
          List<String> row = new ArrayList<>();
          for (int column = 1; column <= columns; column++) {
            row.add(rs.getString(column));
          }
          rows.add(row);
        }
      }
      return rows;
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read the shop's database", e);
    }
  }
}
