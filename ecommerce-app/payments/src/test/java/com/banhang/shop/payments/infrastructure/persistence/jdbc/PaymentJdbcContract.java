package com.banhang.shop.payments.infrastructure.persistence.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.banhang.shop.payments.api.PaymentRecord;
import com.banhang.shop.payments.api.TimelineEntry;
import com.banhang.shop.payments.application.PaymentSearch.Column;
import com.banhang.shop.payments.application.PaymentTimeline;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The timeline's and the search's statements on a database migrated from the scripts the shop ships
 * (sql/&lt;vendor&gt;, V13 included): what they find, in which order, and that the timeline only
 * grows.
 */
abstract class PaymentJdbcContract {

  static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");

  abstract DataSource dataSource();

  JdbcPaymentTimeline timeline;
  JdbcPaymentSearch search;

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
    }
    timeline = new JdbcPaymentTimeline();
    timeline.dataSource = dataSource();
    search = new JdbcPaymentSearch();
    search.dataSource = dataSource();
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
}
