package com.banhang.shop.payments.infrastructure.persistence.jdbc;

import com.banhang.shop.payments.api.GatewayEventView;
import com.banhang.shop.payments.api.GatewayEventView.Status;
import com.banhang.shop.payments.application.GatewayEventStore;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntFunction;
import javax.sql.DataSource;

/**
 * The processor's webhook events in {@code gateway_event} (V20), one SQL text for H2, PostgreSQL
 * and SQL Server: the paging is the standard {@code OFFSET ... FETCH NEXT}, which all three speak.
 *
 * <p>Taking an event for processing is one UPDATE fenced by its WHERE clause (pending and due),
 * which locks the row until the caller's transaction ends: a second processor's UPDATE waits, then
 * finds the row no longer pending (or no longer due) and matches nothing. A connection of {@code
 * jdbc/shop} taken inside a JTA transaction is enlisted in it; outside one (receiving, counting a
 * failure), each statement commits on its own.
 */
@ApplicationScoped
public class JdbcGatewayEventStore implements GatewayEventStore {

  static final String COLUMNS =
      "provider, event_id, event_type, charge_id, gateway_key, payment_id, status, detail,"
          + " verification, deliveries, attempts, received_at, last_received_at, processed_at,"
          + " handled_by, handled_reason";

  static final String COUNT_DELIVERY =
      "UPDATE gateway_event SET deliveries = deliveries + 1, last_received_at = ?"
          + " WHERE provider = ? AND event_id = ?";

  static final String INSERT =
      "INSERT INTO gateway_event (provider, event_id, event_type, charge_id, gateway_key, payload,"
          + " verification, status, detail, deliveries, attempts, received_at, last_received_at,"
          + " next_attempt_at, processed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, 0, ?, ?, ?, ?)";

  static final String DUE =
      "SELECT provider, event_id FROM gateway_event WHERE status = 'PENDING' AND next_attempt_at"
          + " <= ? ORDER BY next_attempt_at, event_id OFFSET 0 ROWS FETCH NEXT ? ROWS ONLY";

  static final String TAKE =
      "UPDATE gateway_event SET attempts = attempts + 1 WHERE provider = ? AND event_id = ?"
          + " AND status = 'PENDING' AND next_attempt_at <= ?";

  static final String TAKEN =
      "SELECT payload, attempts FROM gateway_event WHERE provider = ? AND event_id = ?";

  static final String FINISH =
      "UPDATE gateway_event SET status = ?, detail = ?, payment_id = COALESCE(?, payment_id),"
          + " processed_at = ? WHERE provider = ? AND event_id = ?";

  /**
   * A wait is not a try: the take's count is given back, so that an event that waited out a long
   * lease is not parked by its first real failure.
   */
  static final String LATER =
      "UPDATE gateway_event SET attempts = attempts - 1, next_attempt_at = ?, detail = ?,"
          + " payment_id = COALESCE(?, payment_id) WHERE provider = ? AND event_id = ?"
          + " AND status = 'PENDING'";

  static final String ATTEMPTS =
      "SELECT attempts FROM gateway_event WHERE provider = ? AND event_id = ? AND status ="
          + " 'PENDING'";

  static final String FAILED =
      "UPDATE gateway_event SET attempts = ?, next_attempt_at = ?, detail = ?, status = ?,"
          + " processed_at = ? WHERE provider = ? AND event_id = ? AND status = 'PENDING'"
          + " AND attempts = ?";

  static final String UNPARK =
      "UPDATE gateway_event SET status = 'PENDING', next_attempt_at = ?, attempts = 0,"
          + " processed_at = NULL WHERE provider = ? AND event_id = ? AND status = 'PARKED'";

  static final String MARK_HANDLED =
      "UPDATE gateway_event SET handled_at = ?, handled_by = ?, handled_reason = ?"
          + " WHERE provider = ? AND event_id = ? AND status = 'FLAGGED' AND handled_at IS NULL";

  /** What waits for an operator: parked, or flagged and not marked handled. */
  static final String NEEDING_OPERATOR =
      " WHERE status = 'PARKED' OR (status = 'FLAGGED' AND handled_at IS NULL)";

  static final String FLAGGED_UNHANDLED =
      "SELECT COUNT(*) FROM gateway_event WHERE status = 'FLAGGED' AND handled_at IS NULL";

  @Resource(lookup = "jdbc/shop")
  DataSource dataSource;

  @Override
  public boolean receive(Received event) {
    OffsetDateTime at = utc(event.at());
    try (Connection connection = dataSource.getConnection()) {
      if (countDelivery(connection, event, at)) {
        return false;
      }
      try (PreparedStatement insert = connection.prepareStatement(INSERT)) {
        insert.setString(1, event.provider());
        insert.setString(2, event.eventId());
        insert.setString(3, event.type());
        insert.setString(4, event.chargeId());
        insert.setString(5, event.gatewayKey());
        insert.setString(6, event.payload());
        insert.setString(7, event.verification());
        insert.setString(8, event.status().name());
        insert.setString(9, event.detail());
        insert.setObject(10, at);
        insert.setObject(11, at);
        insert.setObject(12, at);
        insert.setObject(13, event.status() == Status.PENDING ? null : at);
        insert.executeUpdate();
        return true;
      } catch (SQLException e) {
        // Two deliveries of one event at once: the second insert meets the first's key.
        if (isConstraintViolation(e) && countDelivery(connection, event, at)) {
          return false;
        }
        throw e;
      }
    } catch (SQLException e) {
      throw new IllegalStateException(
          "cannot keep gateway event " + event.eventId() + ": " + e.getMessage(), e);
    }
  }

  private static boolean countDelivery(Connection connection, Received event, OffsetDateTime at)
      throws SQLException {
    try (PreparedStatement update = connection.prepareStatement(COUNT_DELIVERY)) {
      update.setObject(1, at);
      update.setString(2, event.provider());
      update.setString(3, event.eventId());
      return update.executeUpdate() == 1;
    }
  }

  /** SQLState class 23: a key or constraint the row broke (H2, PostgreSQL and SQL Server alike). */
  private static boolean isConstraintViolation(SQLException e) {
    return e.getSQLState() != null && e.getSQLState().startsWith("23");
  }

  @Override
  public List<Key> due(Instant now, int limit) {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement select = connection.prepareStatement(DUE)) {
      select.setObject(1, utc(now));
      select.setInt(2, limit);
      List<Key> keys = new ArrayList<>();
      try (ResultSet rows = select.executeQuery()) {
        while (rows.next()) {
          keys.add(new Key(rows.getString(1), rows.getString(2)));
        }
      }
      return keys;
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read the due gateway events: " + e.getMessage(), e);
    }
  }

  @Override
  public Optional<Taken> take(String provider, String eventId, Instant now) {
    try (Connection connection = dataSource.getConnection()) {
      try (PreparedStatement update = connection.prepareStatement(TAKE)) {
        update.setString(1, provider);
        update.setString(2, eventId);
        update.setObject(3, utc(now));
        if (update.executeUpdate() != 1) {
          return Optional.empty();
        }
      }
      try (PreparedStatement select = connection.prepareStatement(TAKEN)) {
        select.setString(1, provider);
        select.setString(2, eventId);
        try (ResultSet row = select.executeQuery()) {
          return row.next()
              ? Optional.of(new Taken(provider, eventId, row.getString(1), row.getInt(2)))
              : Optional.empty();
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException(
          "cannot take gateway event " + eventId + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void finish(Key key, Status status, String detail, String paymentId, Instant at) {
    update(
        FINISH,
        "finish",
        key,
        status.name(),
        clip(detail),
        paymentId,
        utc(at),
        key.provider(),
        key.eventId());
  }

  @Override
  public void later(Key key, Instant next, String detail, String paymentId) {
    update(LATER, "defer", key, utc(next), clip(detail), paymentId, key.provider(), key.eventId());
  }

  @Override
  public void failed(
      Key key, IntFunction<Instant> dueAfter, String detail, int maxAttempts, Instant at) {
    try (Connection connection = dataSource.getConnection()) {
      int attempts;
      try (PreparedStatement select = connection.prepareStatement(ATTEMPTS)) {
        select.setString(1, key.provider());
        select.setString(2, key.eventId());
        try (ResultSet row = select.executeQuery()) {
          if (!row.next()) {
            return;
          }
          attempts = row.getInt(1);
        }
      }
      int failures = attempts + 1;
      boolean park = failures >= maxAttempts;
      try (PreparedStatement update = connection.prepareStatement(FAILED)) {
        update.setInt(1, failures);
        update.setObject(2, utc(dueAfter.apply(failures)));
        update.setString(
            3, clip((park ? "parked after " + failures + " failed tries: " : "") + detail));
        update.setString(4, park ? Status.PARKED.name() : Status.PENDING.name());
        update.setObject(5, park ? utc(at) : null);
        update.setString(6, key.provider());
        update.setString(7, key.eventId());
        update.setInt(8, attempts);
        update.executeUpdate();
      }
    } catch (SQLException e) {
      throw new IllegalStateException(
          "cannot count the failure of gateway event " + key.eventId() + ": " + e.getMessage(), e);
    }
  }

  @Override
  public List<GatewayEventView> page(Status status, int offset, int limit) {
    if (limit < 1) {
      // SQL Server refuses FETCH NEXT 0 ROWS.
      return List.of();
    }
    String where = status == null ? "" : " WHERE status = ?";
    String sql =
        "SELECT "
            + COLUMNS
            + " FROM gateway_event"
            + where
            + " ORDER BY last_received_at DESC, event_id OFFSET ? ROWS FETCH NEXT ? ROWS ONLY";
    return status == null ? views(sql, offset, limit) : views(sql, status.name(), offset, limit);
  }

  @Override
  public long count(Status status) {
    String sql = "SELECT COUNT(*) FROM gateway_event" + (status == null ? "" : " WHERE status = ?");
    try (Connection connection = dataSource.getConnection();
        PreparedStatement select = connection.prepareStatement(sql)) {
      if (status != null) {
        select.setString(1, status.name());
      }
      try (ResultSet row = select.executeQuery()) {
        row.next();
        return row.getLong(1);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot count gateway events: " + e.getMessage(), e);
    }
  }

  @Override
  public List<GatewayEventView> ofPayment(String paymentId) {
    return views(
        "SELECT " + COLUMNS + " FROM gateway_event WHERE payment_id = ? ORDER BY received_at",
        paymentId);
  }

  @Override
  public Optional<GatewayEventView> find(Key key) {
    return views(
            "SELECT " + COLUMNS + " FROM gateway_event WHERE provider = ? AND event_id = ?",
            key.provider(),
            key.eventId())
        .stream()
        .findFirst();
  }

  @Override
  public List<GatewayEventView> needingOperator(int offset, int limit) {
    if (limit < 1) {
      // SQL Server refuses FETCH NEXT 0 ROWS.
      return List.of();
    }
    return views(
        "SELECT "
            + COLUMNS
            + " FROM gateway_event"
            + NEEDING_OPERATOR
            + " ORDER BY last_received_at DESC, event_id OFFSET ? ROWS FETCH NEXT ? ROWS ONLY",
        offset,
        limit);
  }

  @Override
  public long countFlaggedUnhandled() {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement select = connection.prepareStatement(FLAGGED_UNHANDLED);
        ResultSet row = select.executeQuery()) {
      row.next();
      return row.getLong(1);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot count gateway events: " + e.getMessage(), e);
    }
  }

  @Override
  public Map<Status, Long> countsByStatus() {
    Map<Status, Long> counts = new EnumMap<>(Status.class);
    try (Connection connection = dataSource.getConnection();
        PreparedStatement select =
            connection.prepareStatement(
                "SELECT status, COUNT(*) FROM gateway_event GROUP BY status");
        ResultSet rows = select.executeQuery()) {
      while (rows.next()) {
        counts.put(Status.valueOf(rows.getString(1)), rows.getLong(2));
      }
      return counts;
    } catch (SQLException e) {
      throw new IllegalStateException("cannot count gateway events: " + e.getMessage(), e);
    }
  }

  @Override
  public boolean unpark(Key key, Instant now) {
    return update(UNPARK, "retry", key, utc(now), key.provider(), key.eventId()) == 1;
  }

  @Override
  public boolean markHandled(Key key, String operator, String reason, Instant at) {
    return update(
            MARK_HANDLED,
            "mark handled",
            key,
            utc(at),
            operator,
            reason,
            key.provider(),
            key.eventId())
        == 1;
  }

  private int update(String sql, String what, Key key, Object... parameters) {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement update = connection.prepareStatement(sql)) {
      for (int i = 0; i < parameters.length; i++) {
        update.setObject(i + 1, parameters[i]);
      }
      return update.executeUpdate();
    } catch (SQLException e) {
      throw new IllegalStateException(
          "cannot " + what + " gateway event " + key.eventId() + ": " + e.getMessage(), e);
    }
  }

  private List<GatewayEventView> views(String sql, Object... parameters) {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement select = connection.prepareStatement(sql)) {
      for (int i = 0; i < parameters.length; i++) {
        select.setObject(i + 1, parameters[i]);
      }
      List<GatewayEventView> views = new ArrayList<>();
      try (ResultSet rows = select.executeQuery()) {
        while (rows.next()) {
          views.add(view(rows));
        }
      }
      return views;
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read gateway events: " + e.getMessage(), e);
    }
  }

  private static GatewayEventView view(ResultSet row) throws SQLException {
    return new GatewayEventView(
        row.getString("provider"),
        row.getString("event_id"),
        row.getString("event_type"),
        row.getString("charge_id"),
        row.getString("gateway_key"),
        row.getString("payment_id"),
        row.getString("status"),
        row.getString("detail"),
        row.getString("verification"),
        row.getInt("deliveries"),
        row.getInt("attempts"),
        instant(row, "received_at"),
        instant(row, "last_received_at"),
        instant(row, "processed_at"),
        row.getString("handled_by"),
        row.getString("handled_reason"));
  }

  private static Instant instant(ResultSet row, String column) throws SQLException {
    OffsetDateTime at = row.getObject(column, OffsetDateTime.class);
    return at == null ? null : at.toInstant();
  }

  private static OffsetDateTime utc(Instant at) {
    return OffsetDateTime.ofInstant(at, ZoneOffset.UTC);
  }

  /** The detail column's width. */
  private static String clip(String detail) {
    return detail == null || detail.length() <= 1000 ? detail : detail.substring(0, 1000);
  }
}
