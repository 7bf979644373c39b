package com.banhang.events.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.banhang.events.NewEvent;
import com.banhang.events.OutboxEvent;
import com.banhang.events.TestDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the outbox's store promises, on each database the shop runs on, migrated from the scripts it
 * ships: sequences per aggregate, claims that keep an aggregate's order and skip each other, leases
 * that fence a slow relay, retries, parking, retention and the inbox.
 */
abstract class OutboxStoreContract {

  abstract DataSource dataSource();

  JdbcOutboxStore store;

  @BeforeEach
  void emptyOutbox() throws SQLException {
    execute("DELETE FROM outbox_event");
    execute("DELETE FROM inbox_event");
    store = JdbcOutboxStore.forDataSource(dataSource());
  }

  private void execute(String sql) throws SQLException {
    try (Connection connection = dataSource().getConnection();
        PreparedStatement statement = connection.prepareStatement(sql)) {
      statement.executeUpdate();
    }
  }

  private static NewEvent event(String aggregateId, String type) {
    return new NewEvent(
        "order", aggregateId, type, "tenant-a", "{\"orderId\":\"" + aggregateId + "\"}");
  }

  @Test
  void eventsOfAnAggregateAreNumberedFromOneWithoutGaps_andAggregatesApart() {
    store.append(event("o-1", "OrderPlaced"));
    store.append(event("o-2", "OrderPlaced"));
    String captured = store.append(event("o-1", "PaymentCaptured"));

    assertThat(store.find(captured).orElseThrow().event().sequence()).isEqualTo(2);
    List<OutboxEvent> firsts = store.claim("relay-1", 10, Duration.ofMinutes(1));
    assertThat(firsts).extracting(OutboxEvent::sequence).containsOnly(1L);
    assertThat(firsts).extracting(OutboxEvent::aggregateId).containsExactlyInAnyOrder("o-1", "o-2");
    assertThat(firsts).extracting(OutboxEvent::attempts).containsOnly(1);
  }

  @Test
  void anAggregatesNextEvent_isClaimableOnlyOnceTheOneBeforeIsPublished() {
    String placed = store.append(event("o-1", "OrderPlaced"));
    String captured = store.append(event("o-1", "PaymentCaptured"));

    assertThat(store.claim("relay-1", 10, Duration.ofMinutes(1)))
        .extracting(OutboxEvent::id)
        .containsExactly(placed);
    // Another relay finds nothing: the first is leased, the second waits behind it.
    assertThat(store.claim("relay-2", 10, Duration.ofMinutes(1))).isEmpty();

    assertThat(store.markPublished(placed, "relay-1")).isTrue();
    assertThat(store.claim("relay-2", 10, Duration.ofMinutes(1)))
        .extracting(OutboxEvent::id)
        .containsExactly(captured);
  }

  @Test
  void aLeaseThatRanOut_isTakenOver_andTheSlowRelayCanNoLongerMarkIt() throws Exception {
    String placed = store.append(event("o-1", "OrderPlaced"));
    assertThat(store.claim("slow", 10, Duration.ofMillis(200))).hasSize(1);
    assertThat(store.claim("other", 10, Duration.ofMinutes(1))).isEmpty();

    Thread.sleep(400);
    List<OutboxEvent> takenOver = store.claim("other", 10, Duration.ofMinutes(1));

    assertThat(takenOver).extracting(OutboxEvent::id).containsExactly(placed);
    assertThat(takenOver.get(0).attempts()).isEqualTo(2);
    assertThat(store.markPublished(placed, "slow")).isFalse();
    assertThat(store.markPublished(placed, "other")).isTrue();
    assertThat(store.find(placed).orElseThrow().publishedAt()).isNotNull();
  }

  @Test
  void aFailedEventIsDueAgainAfterItsRetryDelay() throws Exception {
    String placed = store.append(event("o-1", "OrderPlaced"));
    store.claim("relay-1", 10, Duration.ofMinutes(1));

    assertThat(
            store.markFailed(
                placed, "relay-1", "kafka: broker down", Duration.ofMillis(300), false))
        .isTrue();

    assertThat(store.claim("relay-1", 10, Duration.ofMinutes(1))).isEmpty();
    Thread.sleep(500);
    assertThat(store.claim("relay-1", 10, Duration.ofMinutes(1)))
        .extracting(OutboxEvent::id)
        .containsExactly(placed);
    assertThat(store.find(placed).orElseThrow().lastError()).isEqualTo("kafka: broker down");
  }

  @Test
  void aParkedEventIsShown_holdsBackItsAggregate_andGoesBackInLineWhenRetried() {
    String placed = store.append(event("o-1", "OrderPlaced"));
    String captured = store.append(event("o-1", "PaymentCaptured"));
    String other = store.append(event("o-2", "OrderPlaced"));
    store.claim("relay-1", 10, Duration.ofMinutes(1));
    store.markPublished(other, "relay-1");

    assertThat(store.markFailed(placed, "relay-1", "webhooks: 500", Duration.ZERO, true)).isTrue();

    assertThat(store.claim("relay-1", 10, Duration.ofMinutes(1))).isEmpty();
    assertThat(store.parked(10))
        .singleElement()
        .satisfies(
            parked -> {
              assertThat(parked.event().id()).isEqualTo(placed);
              assertThat(parked.lastError()).isEqualTo("webhooks: 500");
              assertThat(parked.parkedAt()).isNotNull();
            });

    assertThat(store.unpark(placed)).isTrue();
    assertThat(store.unpark(placed)).isFalse();
    List<OutboxEvent> again = store.claim("relay-1", 10, Duration.ofMinutes(1));
    assertThat(again).extracting(OutboxEvent::id).containsExactly(placed);
    assertThat(again.get(0).attempts()).isEqualTo(1);
    store.markPublished(placed, "relay-1");
    assertThat(store.claim("relay-1", 10, Duration.ofMinutes(1)))
        .extracting(OutboxEvent::id)
        .containsExactly(captured);
  }

  @Test
  void retentionDeletesOldPublishedEvents_butKeepsEachAggregatesNewest() throws Exception {
    String first = store.append(event("o-1", "OrderPlaced"));
    String second = store.append(event("o-1", "PaymentCaptured"));
    String unpublished = store.append(event("o-2", "OrderPlaced"));
    publishAll();
    store.claim("relay-1", 10, Duration.ofMinutes(1));
    Thread.sleep(50);
    // o-2's event is claimed, not published: retention never touches it.

    assertThat(store.purgePublished(Duration.ofMinutes(1), 100)).isZero();
    assertThat(store.purgePublished(Duration.ZERO, 100)).isEqualTo(1);

    assertThat(store.find(first)).isEmpty();
    assertThat(store.find(second)).isPresent();
    assertThat(store.find(unpublished)).isPresent();
    // The aggregate's next event continues its sequence.
    String third = store.append(event("o-1", "OrderCancelled"));
    assertThat(store.find(third).orElseThrow().event().sequence()).isEqualTo(3);
  }

  private void publishAll() {
    List<OutboxEvent> batch;
    while (!(batch = store.claim("publisher", 100, Duration.ofMinutes(1))).isEmpty()) {
      for (OutboxEvent e : batch) {
        if (!e.aggregateId().equals("o-2")) {
          store.markPublished(e.id(), "publisher");
        } else {
          store.markFailed(e.id(), "publisher", "later", Duration.ZERO, false);
          return;
        }
      }
    }
  }

  @Test
  void theInboxTakesAnEventOncePerSource() {
    assertThat(store.receive("urn:shop", "e-1")).isTrue();
    assertThat(store.receive("urn:shop", "e-1")).isFalse();
    assertThat(store.receive("urn:other", "e-1")).isTrue();
  }

  @Test
  void anEventWrittenInATransactionThatRollsBack_doesNotExist() throws SQLException {
    try (Connection connection = dataSource().getConnection()) {
      connection.setAutoCommit(false);
      JdbcOutboxStore inTransaction =
          JdbcOutboxStore.forDataSource(TestDataSource.oneConnection(connection));
      String id = inTransaction.append(event("o-1", "OrderPlaced"));
      assertThat(inTransaction.find(id)).isPresent();
      connection.rollback();
      assertThat(store.find(id)).isEmpty();
    }
  }

  /**
   * Two relays on real threads, each with its own connections, relay 40 aggregates of 5 events
   * written while they run: every event reaches the consumer, each once, and each aggregate's in
   * its order.
   */
  @Test
  void twoRelaysAtOnce_deliverEveryEventOnce_inOrderPerAggregate() throws Exception {
    int aggregates = 40;
    int perAggregate = 5;
    Map<String, List<Long>> received = Collections.synchronizedMap(new HashMap<>());
    List<String> deliveries = Collections.synchronizedList(new ArrayList<>());
    CountDownLatch writing = new CountDownLatch(1);
    ExecutorService threads = Executors.newFixedThreadPool(3);
    try {
      List<Future<?>> relays = new ArrayList<>();
      for (String owner : List.of("node-a", "node-b")) {
        relays.add(
            threads.submit(
                () -> {
                  JdbcOutboxStore relay = JdbcOutboxStore.forDataSource(dataSource());
                  int idle = 0;
                  while (idle < 20 || writing.getCount() > 0) {
                    List<OutboxEvent> batch = relay.claim(owner, 7, Duration.ofMinutes(1));
                    idle = batch.isEmpty() ? idle + 1 : 0;
                    for (OutboxEvent e : batch) {
                      deliveries.add(e.id());
                      received
                          .computeIfAbsent(e.aggregateId(), k -> new ArrayList<>())
                          .add(e.sequence());
                      assertThat(relay.markPublished(e.id(), owner)).isTrue();
                    }
                    Thread.sleep(batch.isEmpty() ? 10 : 0);
                  }
                  return null;
                }));
      }
      threads
          .submit(
              () -> {
                for (int n = 0; n < perAggregate; n++) {
                  for (int a = 0; a < aggregates; a++) {
                    store.append(event("agg-" + a, "Step" + n));
                  }
                }
                writing.countDown();
              })
          .get(60, TimeUnit.SECONDS);
      for (Future<?> relay : relays) {
        relay.get(120, TimeUnit.SECONDS);
      }
    } finally {
      threads.shutdownNow();
    }

    assertThat(deliveries).hasSize(aggregates * perAggregate).doesNotHaveDuplicates();
    assertThat(received).hasSize(aggregates);
    received.forEach(
        (aggregate, sequences) ->
            assertThat(sequences).as(aggregate).containsExactly(1L, 2L, 3L, 4L, 5L));
  }

  /**
   * Writers of one aggregate at once, each in a transaction of its own as in the server, get
   * consecutive sequences and none fails.
   */
  @Test
  void concurrentWritersOfOneAggregate_getConsecutiveSequences() throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(4);
    List<Future<String>> writes = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      writes.add(threads.submit(() -> appendInTransaction(event("shared", "Step"))));
    }
    List<Long> sequences = new ArrayList<>();
    try {
      for (Future<String> write : writes) {
        sequences.add(store.find(write.get(60, TimeUnit.SECONDS)).orElseThrow().event().sequence());
      }
    } finally {
      threads.shutdownNow();
    }
    assertThat(sequences)
        .containsExactlyInAnyOrderElementsOf(
            java.util.stream.LongStream.rangeClosed(1, 20).boxed().toList());
  }

  private String appendInTransaction(NewEvent event) throws SQLException {
    try (Connection connection = dataSource().getConnection()) {
      connection.setAutoCommit(false);
      try {
        String id =
            JdbcOutboxStore.forDataSource(TestDataSource.oneConnection(connection)).append(event);
        Thread.sleep(5);
        connection.commit();
        return id;
      } catch (InterruptedException e) {
        connection.rollback();
        throw new IllegalStateException(e);
      }
    }
  }
}
