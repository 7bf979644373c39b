package com.banhang.shop.payments.infrastructure.persistence.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.banhang.shop.payments.api.GatewayEventView;
import com.banhang.shop.payments.api.PaymentRecord;
import com.banhang.shop.payments.api.TimelineEntry;
import com.banhang.shop.payments.application.GatewayEventStore;
import com.banhang.shop.payments.application.PaymentSearch.Column;
import com.banhang.shop.payments.application.PaymentTimeline;
import com.banhang.shop.payments.domain.model.LateCharge;
import com.banhang.shop.payments.domain.model.LateChargeHandling;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The timeline's, the search's and the late-charge mark's statements on a database migrated from
 * the scripts the shop ships (sql/&lt;vendor&gt;, V13 and V16 included): what they find, in which
 * order, that the timeline only grows, and that a late charge is marked handled once.
 */
abstract class PaymentJdbcContract {

  static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");

  abstract DataSource dataSource();

  JdbcPaymentTimeline timeline;
  JdbcPaymentSearch search;
  JdbcLateChargeMarks marks;
  JdbcGatewayEventStore events;

  static void migrate(DataSource dataSource, String folder) {
    String sqlDir = System.getProperty("sql.dir", "../../sql");
    Flyway.configure()
        .dataSource(dataSource)
        .locations("filesystem:" + sqlDir + "/" + folder)
        .load()
        .migrate();
  }

  @BeforeEach
  void emptyTables() throws SQLException {
    try (Connection connection = dataSource().getConnection();
        Statement statement = connection.createStatement()) {
      // The timeline refuses DELETE on PostgreSQL: each test writes keys of its own instead.
      statement.executeUpdate("DELETE FROM payment");
      statement.executeUpdate("DELETE FROM order_line");
      statement.executeUpdate("DELETE FROM shop_order");
      statement.executeUpdate("DELETE FROM gateway_event");
    }
    events = new JdbcGatewayEventStore();
    events.dataSource = dataSource();
    timeline = new JdbcPaymentTimeline();
    timeline.dataSource = dataSource();
    search = new JdbcPaymentSearch();
    search.dataSource = dataSource();
    marks = new JdbcLateChargeMarks();
    marks.dataSource = dataSource();
  }

  /** An order and one payment of it, created {@code minutes} after T0. */
  String payment(String tenant, String key, int minutes, String chargeId, String lateChargeId)
      throws SQLException {
    String orderId = UUID.randomUUID().toString();
    String paymentId = UUID.randomUUID().toString();
    OffsetDateTime at = OffsetDateTime.ofInstant(T0.plusSeconds(60L * minutes), ZoneOffset.UTC);
    try (Connection connection = dataSource().getConnection()) {
      try (PreparedStatement order =
          connection.prepareStatement(
              "INSERT INTO shop_order (id, tenant_id, merchant_order_id, currency, status,"
                  + " total_amount, created_at, version) VALUES (?, ?, ?, 'VND', 'PAID', 1000, ?,"
                  + " 1)")) {
        order.setString(1, orderId);
        order.setString(2, tenant);
        order.setString(3, "M-" + orderId.substring(0, 8));
        order.setObject(4, at);
        order.executeUpdate();
      }
      try (PreparedStatement insert =
          connection.prepareStatement(
              "INSERT INTO payment (id, tenant_id, order_id, active_order_id, amount, currency,"
                  + " payment_method, status, gateway_key, gateway_charge_id, idempotency_key,"
                  + " idempotency_attempt, created_at, updated_at, version, late_charge,"
                  + " late_charge_id) VALUES (?, ?, ?, NULL, 1000, 'VND', 'pm_card_ok', ?, ?, ?,"
                  + " ?, 1, ?, ?, 1, ?, ?)")) {
        insert.setString(1, paymentId);
        insert.setString(2, tenant);
        insert.setString(3, orderId);
        insert.setString(4, lateChargeId == null ? "DECLINED" : "ABANDONED");
        insert.setString(5, "banhang_" + paymentId);
        insert.setString(6, chargeId);
        insert.setString(7, key);
        insert.setObject(8, at);
        insert.setObject(9, at);
        insert.setString(10, lateChargeId == null ? null : "MISMATCH");
        insert.setString(11, lateChargeId);
        insert.executeUpdate();
      }
    }
    return paymentId;
  }

  @Test
  void everyExactColumn_findsItsPayment_andOnlyIt() throws SQLException {
    String key = "k-" + UUID.randomUUID();
    String id = payment("alice", key, 1, "ch_exact", null);
    String late = payment("bob", "k-other", 2, null, "ch_late");
    PaymentRecord found = search.equal(Column.PAYMENT_ID, id, 10).get(0);

    assertThat(search.equal(Column.ORDER_ID, found.orderId(), 10))
        .extracting(PaymentRecord::paymentId)
        .containsExactly(id);
    assertThat(search.equal(Column.GATEWAY_KEY, "banhang_" + id, 10))
        .extracting(PaymentRecord::paymentId)
        .containsExactly(id);
    assertThat(search.equal(Column.GATEWAY_CHARGE_ID, "ch_exact", 10))
        .extracting(PaymentRecord::paymentId)
        .containsExactly(id);
    assertThat(search.equal(Column.LATE_CHARGE_ID, "ch_late", 10))
        .extracting(PaymentRecord::paymentId, PaymentRecord::lateCharge)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(late, "MISMATCH"));
    assertThat(search.equal(Column.IDEMPOTENCY_KEY, key, 10))
        .extracting(PaymentRecord::paymentId)
        .containsExactly(id);
    // Exact: a part of a value, or another case, is not the value.
    assertThat(search.equal(Column.GATEWAY_CHARGE_ID, "ch_exa", 10)).isEmpty();
    assertThat(search.equal(Column.GATEWAY_CHARGE_ID, "CH_EXACT", 10)).isEmpty();

    assertThat(found.tenantId()).isEqualTo("alice");
    assertThat(found.amount()).isEqualTo(1000);
    assertThat(found.currency()).isEqualTo("VND");
    assertThat(found.status()).isEqualTo("DECLINED");
    assertThat(found.gatewayChargeId()).isEqualTo("ch_exact");
    assertThat(found.idempotencyKey()).isEqualTo(key);
    assertThat(found.attempt()).isEqualTo(1);
    assertThat(found.createdAt()).isEqualTo(T0.plusSeconds(60));
  }

  @Test
  void oneKey_manyAttempts_newestFirst_andBounded() throws SQLException {
    String key = "k-" + UUID.randomUUID();
    String first = payment("alice", key, 1, null, null);
    String second = payment("alice", key, 5, null, null);
    String third = payment("alice", key, 3, null, null);

    assertThat(search.equal(Column.IDEMPOTENCY_KEY, key, 10))
        .extracting(PaymentRecord::paymentId)
        .containsExactly(second, third, first);
    assertThat(search.equal(Column.IDEMPOTENCY_KEY, key, 2))
        .extracting(PaymentRecord::paymentId)
        .containsExactly(second, third);
    assertThat(search.equal(Column.IDEMPOTENCY_KEY, key, 0)).isEmpty();
  }

  @Test
  void aTenantPrefix_isARange_thatFindsExactlyTheTenantsStartingWithIt() throws SQLException {
    String alice = payment("alice", "k-1", 1, null, null);
    String alicia = payment("alicia", "k-2", 2, null, null);
    payment("alb", "k-3", 3, null, null);
    payment("bob", "k-4", 4, null, null);
    String wild = payment("al%_x", "k-5", 5, null, null);

    assertThat(search.tenantStartingWith("ali", 10))
        .extracting(PaymentRecord::paymentId)
        .containsExactly(alicia, alice);
    assertThat(search.tenantStartingWith("alice", 10))
        .extracting(PaymentRecord::paymentId)
        .containsExactly(alice);
    // Nothing of the term is a pattern: % and _ are characters like any other.
    assertThat(search.tenantStartingWith("al%", 10))
        .extracting(PaymentRecord::paymentId)
        .containsExactly(wild);
    assertThat(search.tenantStartingWith("carol", 10)).isEmpty();
  }

  @Test
  void theOrdersPayments_newestFirst() throws SQLException {
    String a = payment("alice", "k-1", 1, null, null);
    String b = payment("bob", "k-2", 2, null, null);
    payment("carol", "k-3", 3, null, null);
    String orderA = search.equal(Column.PAYMENT_ID, a, 1).get(0).orderId();
    String orderB = search.equal(Column.PAYMENT_ID, b, 1).get(0).orderId();

    assertThat(search.ofOrders(List.of(orderA, orderB, orderA), 10))
        .extracting(PaymentRecord::paymentId)
        .containsExactly(b, a);
    assertThat(search.ofOrders(List.of(orderA, orderB), 1))
        .extracting(PaymentRecord::paymentId)
        .containsExactly(b);
    assertThat(search.ofOrders(List.of(), 10)).isEmpty();
  }

  @Test
  void theTimelineOfAKey_isWhatWasWritten_inTheOrderWritten_theNewestWhenBounded() {
    String key = "k-" + UUID.randomUUID();
    timeline.append(entry("alice", key, "p-1", 0, TimelineEntry.Kind.ATTEMPT_STARTED, "started"));
    timeline.append(entry("alice", key, "p-1", 2, TimelineEntry.Kind.OUTCOME_UNKNOWN, null));
    timeline.append(entry("alice", key, null, 1, TimelineEntry.Kind.CUSTOMER_RETRY, "409"));
    timeline.append(entry("bob", key, "p-2", 0, TimelineEntry.Kind.ATTEMPT_STARTED, "bob's"));

    List<TimelineEntry> entries = timeline.ofKey("alice", key, 10);

    assertThat(entries)
        .extracting(TimelineEntry::kind)
        .containsExactly("ATTEMPT_STARTED", "OUTCOME_UNKNOWN", "CUSTOMER_RETRY");
    assertThat(entries.get(0).at()).isEqualTo(T0);
    assertThat(entries.get(0).detail()).isEqualTo("started");
    assertThat(entries.get(0).actor()).isEqualTo("shop");
    assertThat(entries.get(0).paymentId()).isEqualTo("p-1");
    assertThat(entries.get(2).paymentId()).isNull();
    assertThat(timeline.ofKey("alice", key, 2))
        .extracting(TimelineEntry::kind)
        .containsExactly("OUTCOME_UNKNOWN", "CUSTOMER_RETRY");
    assertThat(timeline.ofKey("alice", key, 0)).isEmpty();
  }

  @Test
  void anEntryOfTheLongestDetail_isKept_whole() {
    String key = "k-" + UUID.randomUUID();
    String detail = "é".repeat(1000);
    timeline.append(entry("alice", key, null, 0, TimelineEntry.Kind.CUSTOMER_RETRY, detail));

    assertThat(timeline.ofKey("alice", key, 1).get(0).detail()).isEqualTo(detail);
  }

  /** Whether the database itself refuses UPDATE and DELETE of the timeline (its trigger). */
  abstract boolean refusesChangesToTheTimeline();

  @Test
  void theTimeline_isAppendOnly_whereTheDatabaseHasATrigger() throws SQLException {
    String key = "k-" + UUID.randomUUID();
    timeline.append(entry("alice", key, null, 0, TimelineEntry.Kind.CUSTOMER_RETRY, "one"));
    if (!refusesChangesToTheTimeline()) {
      return;
    }
    try (Connection connection = dataSource().getConnection();
        Statement statement = connection.createStatement()) {
      assertThatThrownBy(
              () -> statement.executeUpdate("UPDATE payment_timeline SET detail = 'changed'"))
          .hasMessageContaining("append-only");
      assertThatThrownBy(() -> statement.executeUpdate("DELETE FROM payment_timeline"))
          .hasMessageContaining("append-only");
    }
    assertThat(timeline.ofKey("alice", key, 1).get(0).detail()).isEqualTo("one");
  }

  // The operator's mark on a flagged late charge (V16): one fenced UPDATE.

  static final Set<LateCharge> FLAGGED =
      EnumSet.of(LateCharge.DOUBLE_CHARGE, LateCharge.MISMATCH, LateCharge.DECLINED);
  static final Set<LateCharge> NEEDING_OPERATOR =
      EnumSet.of(LateCharge.DOUBLE_CHARGE, LateCharge.MISMATCH);
  static final Instant MARKED = T0.plusSeconds(3600);

  /** The payment's late charge set to {@code flag} (null: none), as the sweep leaves it. */
  void flag(String paymentId, String flag) throws SQLException {
    try (Connection connection = dataSource().getConnection();
        PreparedStatement update =
            connection.prepareStatement("UPDATE payment SET late_charge = ? WHERE id = ?")) {
      update.setString(1, flag);
      update.setString(2, paymentId);
      update.executeUpdate();
    }
  }

  /** handled_at, handled_by, handling, handled_reason and version, as stored. */
  List<Object> mark(String paymentId) throws SQLException {
    try (Connection connection = dataSource().getConnection();
        PreparedStatement select =
            connection.prepareStatement(
                "SELECT handled_at, handled_by, handling, handled_reason, version FROM payment"
                    + " WHERE id = ?")) {
      select.setString(1, paymentId);
      try (ResultSet rs = select.executeQuery()) {
        rs.next();
        OffsetDateTime at = rs.getObject(1, OffsetDateTime.class);
        return java.util.Arrays.asList(
            at == null ? null : at.toInstant(),
            rs.getString(2),
            rs.getString(3),
            rs.getString(4),
            rs.getInt(5));
      }
    }
  }

  @Test
  void aFlaggedLateCharge_isMarkedOnce_aSecondMarkChangesNothing() throws SQLException {
    String id = payment("alice", "k-" + UUID.randomUUID(), 1, null, "ch_late");

    boolean first =
        marks.mark(id, FLAGGED, LateChargeHandling.REFUNDED, "alice-op", "refunded it", MARKED);
    boolean second =
        marks.mark(
            id, FLAGGED, LateChargeHandling.ACCEPTED, "bob-op", "accept it", MARKED.plusSeconds(1));

    assertThat(first).isTrue();
    assertThat(second).isFalse();
    // The first mark stands whole; the version rose once, with it.
    assertThat(mark(id)).containsExactly(MARKED, "alice-op", "REFUNDED", "refunded it", 2);
  }

  @Test
  void aPaymentWithoutAFlag_orWithAnotherFlag_isNotMarked() throws SQLException {
    String none = payment("alice", "k-" + UUID.randomUUID(), 1, null, null);
    String recorded = payment("alice", "k-" + UUID.randomUUID(), 2, null, "ch_recorded");
    flag(recorded, "RECORDED");
    String declined = payment("alice", "k-" + UUID.randomUUID(), 3, null, "ch_declined");
    flag(declined, "DECLINED");

    assertThat(marks.mark(none, FLAGGED, LateChargeHandling.ACCEPTED, "op", "why", MARKED))
        .isFalse();
    assertThat(marks.mark(recorded, FLAGGED, LateChargeHandling.ACCEPTED, "op", "why", MARKED))
        .isFalse();
    // Refunded is offered only for the flags that took money: a declined charge is not one.
    assertThat(
            marks.mark(
                declined, NEEDING_OPERATOR, LateChargeHandling.REFUNDED, "op", "why", MARKED))
        .isFalse();
    assertThat(marks.mark("no-such", FLAGGED, LateChargeHandling.ACCEPTED, "op", "why", MARKED))
        .isFalse();

    assertThat(mark(none)).containsExactly(null, null, null, null, 1);
    assertThat(mark(recorded)).containsExactly(null, null, null, null, 1);
    assertThat(mark(declined)).containsExactly(null, null, null, null, 1);
    assertThat(marks.mark(declined, FLAGGED, LateChargeHandling.ACCEPTED, "op", "why", MARKED))
        .isTrue();
  }

  @Test
  void twoMarksAtOnce_markOnce_theSecondWaitsAndThenFindsTheMark() throws Exception {
    String id = payment("alice", "k-" + UUID.randomUUID(), 1, null, "ch_late");
    CompletableFuture<Boolean> second;
    try (Connection first = dataSource().getConnection()) {
      first.setAutoCommit(false);
      try (PreparedStatement update =
          first.prepareStatement(String.format(JdbcLateChargeMarks.MARK, "?, ?"))) {
        update.setObject(1, OffsetDateTime.ofInstant(MARKED, ZoneOffset.UTC));
        update.setString(2, "alice-op");
        update.setString(3, "REFUNDED");
        update.setString(4, "refunded it");
        update.setObject(5, OffsetDateTime.ofInstant(MARKED, ZoneOffset.UTC));
        update.setString(6, id);
        update.setString(7, "DOUBLE_CHARGE");
        update.setString(8, "MISMATCH");
        assertThat(update.executeUpdate()).isEqualTo(1);
      }
      // The other operator's mark runs while the first holds the row, uncommitted.
      second =
          CompletableFuture.supplyAsync(
              () ->
                  marks.mark(
                      id, FLAGGED, LateChargeHandling.ACCEPTED, "bob-op", "accept it", MARKED));
      Thread.sleep(300);
      first.commit();
    }

    assertThat(second.get(10, TimeUnit.SECONDS)).isFalse();
    assertThat(mark(id)).containsExactly(MARKED, "alice-op", "REFUNDED", "refunded it", 2);
  }

  @Test
  void theDatabaseRefusesAnUnknownHandling_aHalfMark_andAMarkOfAnUnflaggedPayment()
      throws SQLException {
    String flagged = payment("alice", "k-" + UUID.randomUUID(), 1, null, "ch_late");
    String unflagged = payment("alice", "k-" + UUID.randomUUID(), 2, null, null);
    String at = "handled_at = CURRENT_TIMESTAMP, handled_by = 'op', handled_reason = 'why'";
    try (Connection connection = dataSource().getConnection();
        Statement statement = connection.createStatement()) {
      assertThatThrownBy(
              () ->
                  statement.executeUpdate(
                      "UPDATE payment SET "
                          + at
                          + ", handling = 'REVERSED' WHERE id = '"
                          + flagged
                          + "'"))
          .isInstanceOf(SQLException.class);
      assertThatThrownBy(
              () ->
                  statement.executeUpdate(
                      "UPDATE payment SET handling = 'ACCEPTED' WHERE id = '" + flagged + "'"))
          .isInstanceOf(SQLException.class);
      assertThatThrownBy(
              () ->
                  statement.executeUpdate(
                      "UPDATE payment SET "
                          + at
                          + ", handling = 'ACCEPTED' WHERE id = '"
                          + unflagged
                          + "'"))
          .isInstanceOf(SQLException.class);
    }
    assertThat(mark(flagged)).containsExactly(null, null, null, null, 1);
  }

  static PaymentTimeline.Entry entry(
      String tenant,
      String key,
      String paymentId,
      int minutes,
      TimelineEntry.Kind kind,
      String detail) {
    return new PaymentTimeline.Entry(
        tenant, key, paymentId, T0.plusSeconds(60L * minutes), kind, detail, "shop");
  }

  // The processor's webhook events (V20): kept once, taken once, parked, retried, marked.

  private static final GatewayEventStore.Key EVENT = new GatewayEventStore.Key("sandbox", "evt_1");

  private static GatewayEventStore.Received received(
      String eventId, GatewayEventView.Status status, Instant at) {
    return new GatewayEventStore.Received(
        "sandbox",
        eventId,
        "charge.succeeded",
        "ch_1",
        "banhang_k",
        "{\"id\":\"" + eventId + "\"}",
        "signature verified with secret 1 of 1, signed at " + at,
        status,
        status == GatewayEventView.Status.PARKED ? "unknown type" : null,
        at);
  }

  @Test
  void aGatewayEvent_isKeptOnce_aSecondDeliveryOnlyCounts() {
    assertThat(events.receive(received("evt_1", GatewayEventView.Status.PENDING, T0))).isTrue();
    assertThat(
            events.receive(received("evt_1", GatewayEventView.Status.PENDING, T0.plusSeconds(5))))
        .isFalse();

    GatewayEventView view = events.page(null, 0, 10).get(0);
    assertThat(view.deliveries()).isEqualTo(2);
    assertThat(view.status()).isEqualTo("PENDING");
    assertThat(view.receivedAt()).isEqualTo(T0);
    assertThat(view.lastReceivedAt()).isEqualTo(T0.plusSeconds(5));
    assertThat(view.verification()).startsWith("signature verified with secret 1 of 1");
    assertThat(events.count(null)).isEqualTo(1);
    assertThat(events.count(GatewayEventView.Status.FLAGGED)).isZero();
    // A page of no rows reads nothing: SQL Server refuses FETCH NEXT 0 ROWS.
    assertThat(events.page(null, 0, 0)).isEmpty();
  }

  @Test
  void aGatewayEvent_isDueUntilTaken_andTakenOnce() {
    events.receive(received("evt_1", GatewayEventView.Status.PENDING, T0));
    events.receive(received("evt_parked", GatewayEventView.Status.PARKED, T0));

    assertThat(events.due(T0.minusSeconds(1), 10)).isEmpty();
    assertThat(events.due(T0, 10)).containsExactly(EVENT);
    assertThat(events.take("sandbox", "evt_1", T0)).isPresent();
    events.finish(EVENT, GatewayEventView.Status.SETTLED, "settled", "p-1", T0);

    assertThat(events.take("sandbox", "evt_1", T0)).isEmpty();
    assertThat(events.due(T0.plusSeconds(60), 10)).isEmpty();
    assertThat(events.ofPayment("p-1"))
        .extracting(GatewayEventView::status)
        .containsExactly("SETTLED");
  }

  @Test
  void aWaitingGatewayEvent_isDueAgainOnlyAfterItsWait() {
    events.receive(received("evt_1", GatewayEventView.Status.PENDING, T0));
    assertThat(events.take("sandbox", "evt_1", T0)).isPresent();
    events.later(EVENT, T0.plusSeconds(2), "its request is still running", "p-1");

    assertThat(events.due(T0.plusSeconds(1), 10)).isEmpty();
    assertThat(events.take("sandbox", "evt_1", T0.plusSeconds(1))).isEmpty();
    assertThat(events.due(T0.plusSeconds(2), 10)).containsExactly(EVENT);
  }

  @Test
  void manyWaits_areNotTries_theFirstFailureAfterThemDoesNotParkTheEvent() {
    events.receive(received("evt_1", GatewayEventView.Status.PENDING, T0));
    for (int wait = 0; wait < 12; wait++) {
      Instant at = T0.plusSeconds(wait);
      assertThat(events.take("sandbox", "evt_1", at)).isPresent();
      events.later(EVENT, at.plusSeconds(1), "its request is still running", "p-1");
    }
    events.failed(EVENT, failures -> T0.plusSeconds(100), "boom", 10, T0.plusSeconds(12));

    GatewayEventView view = events.page(null, 0, 1).get(0);
    assertThat(view.status()).isEqualTo("PENDING");
    assertThat(view.attempts()).isEqualTo(1);
  }

  @Test
  void twoProcessorsAtOnce_takeAGatewayEventOnce_theSecondWaitsAndThenFindsItDone()
      throws Exception {
    events.receive(received("evt_1", GatewayEventView.Status.PENDING, T0));
    CompletableFuture<Boolean> second;
    try (Connection first = dataSource().getConnection()) {
      first.setAutoCommit(false);
      try (PreparedStatement take = first.prepareStatement(JdbcGatewayEventStore.TAKE);
          PreparedStatement finish = first.prepareStatement(JdbcGatewayEventStore.FINISH)) {
        take.setString(1, "sandbox");
        take.setString(2, "evt_1");
        take.setObject(3, OffsetDateTime.ofInstant(T0, ZoneOffset.UTC));
        assertThat(take.executeUpdate()).isEqualTo(1);
        finish.setString(1, "CONFIRMED");
        finish.setString(2, "confirmed");
        finish.setString(3, "p-1");
        finish.setObject(4, OffsetDateTime.ofInstant(T0, ZoneOffset.UTC));
        finish.setString(5, "sandbox");
        finish.setString(6, "evt_1");
        finish.executeUpdate();
      }
      // The other node takes the same event while the first holds its row, uncommitted.
      second = CompletableFuture.supplyAsync(() -> events.take("sandbox", "evt_1", T0).isPresent());
      Thread.sleep(300);
      first.commit();
    }

    assertThat(second.get(10, TimeUnit.SECONDS)).isFalse();
    assertThat(events.page(null, 0, 1).get(0).attempts()).isEqualTo(1);
  }

  @Test
  void aGatewayEventThatKeepsFailing_isParked_andARetryMakesItPendingAgain() {
    events.receive(received("evt_1", GatewayEventView.Status.PENDING, T0));
    events.failed(EVENT, failures -> T0.plusSeconds(failures), "boom", 2, T0);
    assertThat(events.due(T0.plusSeconds(1), 10)).containsExactly(EVENT);
    events.failed(EVENT, failures -> T0.plusSeconds(failures), "boom", 2, T0);

    GatewayEventView parked = events.page(GatewayEventView.Status.PARKED, 0, 10).get(0);
    assertThat(parked.attempts()).isEqualTo(2);
    assertThat(parked.detail()).startsWith("parked after 2 failed tries");
    assertThat(events.due(T0.plusSeconds(600), 10)).isEmpty();

    assertThat(events.unpark(EVENT, T0.plusSeconds(700))).isTrue();
    assertThat(events.unpark(EVENT, T0.plusSeconds(700))).isFalse();
    assertThat(events.due(T0.plusSeconds(700), 10)).containsExactly(EVENT);
    assertThat(events.countsByStatus()).containsEntry(GatewayEventView.Status.PENDING, 1L);
  }

  @Test
  void aFlaggedGatewayEvent_isMarkedHandledOnce_andOnlyAFlaggedOne() {
    events.receive(received("evt_1", GatewayEventView.Status.PENDING, T0));
    assertThat(events.markHandled(EVENT, "alice-op", "refunded", T0)).isFalse();
    events.take("sandbox", "evt_1", T0);
    events.finish(EVENT, GatewayEventView.Status.FLAGGED, "contradicts", "p-1", T0);

    assertThat(events.markHandled(EVENT, "alice-op", "refunded", T0)).isTrue();
    assertThat(events.markHandled(EVENT, "bob-op", "again", T0)).isFalse();
    GatewayEventView view = events.ofPayment("p-1").get(0);
    assertThat(view.handledBy()).isEqualTo("alice-op");
    assertThat(view.handledReason()).isEqualTo("refunded");
  }

  @Test
  void theDatabaseRefusesAGatewayEventOfAnUnknownStatus() throws SQLException {
    events.receive(received("evt_1", GatewayEventView.Status.PENDING, T0));
    try (Connection connection = dataSource().getConnection();
        Statement statement = connection.createStatement()) {
      assertThatThrownBy(() -> statement.executeUpdate("UPDATE gateway_event SET status = 'DONE'"))
          .isInstanceOf(SQLException.class);
    }
  }
}
