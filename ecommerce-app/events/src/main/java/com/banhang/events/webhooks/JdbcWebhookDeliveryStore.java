package com.banhang.events.webhooks;

import com.banhang.events.sql.SqlDialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * The webhook tables on H2, PostgreSQL or SQL Server, over a data source. Statements that must go
 * together run in a local transaction of their own, so the callers run with no JTA transaction open
 * (the relay's hand-over, the dispatcher's claim and its outcomes).
 */
public final class JdbcWebhookDeliveryStore implements WebhookDeliveryStore {

  private static final String DELIVERY_COLUMNS =
      "d.id, d.event_id, d.endpoint, d.tenant_id, d.status, d.attempts, d.next_attempt_at,"
          + " d.last_status, d.last_error, d.created_at, d.delivered_at";

  private static final String CLAIMED_COLUMNS = "d.id, d.event_id, d.endpoint, d.body, d.attempts";

  private static final String ENDPOINT_DISABLED =
      "EXISTS (SELECT 1 FROM webhook_endpoint_state s WHERE s.endpoint = ";

  private static final int MAX_TEXT = 1000;

  private final DataSource dataSource;
  private final SqlDialect dialect;
  private final String pending;
  private final String delivered;
  private final String parked;
  private final String disabled;

  private JdbcWebhookDeliveryStore(DataSource dataSource, SqlDialect dialect) {
    this.dataSource = dataSource;
    this.dialect = dialect;
    this.pending = dialect.text(DeliveryStatus.PENDING.name());
    this.delivered = dialect.text(DeliveryStatus.DELIVERED.name());
    this.parked = dialect.text(DeliveryStatus.PARKED.name());
    this.disabled = dialect.text(DeliveryStatus.DISABLED.name());
  }

  /** The store for the database behind {@code dataSource}, by the product name its driver gives. */
  public static JdbcWebhookDeliveryStore forDataSource(DataSource dataSource) {
    try (Connection connection = dataSource.getConnection()) {
      return new JdbcWebhookDeliveryStore(
          dataSource, SqlDialect.of(connection.getMetaData().getDatabaseProductName()));
    } catch (SQLException e) {
      throw new IllegalStateException(
          "cannot reach the webhook deliveries' database: " + e.getMessage(), e);
    }
  }

  @Override
  public int record(
      String eventId,
      String tenantId,
      String body,
      Collection<String> endpoints,
      Duration firstAttemptIn) {
    if (endpoints.isEmpty()) {
      return 0;
    }
    String now = dialect.now();
    String sql =
        "INSERT INTO webhook_delivery (id, event_id, endpoint, tenant_id, body, status, attempts,"
            + " next_attempt_at, created_at) SELECT ?, ?, ?, ?, ?, CASE WHEN "
            + ENDPOINT_DISABLED
            + "?) THEN "
            + disabled
            + " ELSE "
            + pending
            + " END, 0, "
            + dialect.plus(now)
            + ", "
            + now
            + dialect.unlessPresent("webhook_delivery", "event_id = ? AND endpoint = ?");
    return inTransaction(
        "record webhook deliveries",
        connection -> {
          int written = 0;
          try (PreparedStatement insert = connection.prepareStatement(sql)) {
            for (String endpoint : endpoints) {
              insert.setString(1, UUID.randomUUID().toString());
              insert.setString(2, eventId);
              insert.setString(3, endpoint);
              insert.setString(4, tenantId);
              insert.setString(5, body);
              insert.setString(6, endpoint);
              int next = dialect.bind(insert, 7, firstAttemptIn);
              if (dialect.bindsKeyAgain()) {
                insert.setString(next, eventId);
                insert.setString(next + 1, endpoint);
              }
              try {
                written += insert.executeUpdate();
              } catch (SQLException e) {
                // A concurrent hand-over of the same event wrote this one first.
                if (!SqlDialect.isDuplicateKey(e)) {
                  throw e;
                }
              }
            }
          }
          return written;
        });
  }

  @Override
  public List<ClaimedDelivery> claim(
      String owner, Collection<String> endpoints, int limit, Duration lease) {
    if (limit < 1 || endpoints.isEmpty()) {
      return List.of();
    }
    String now = dialect.now();
    String where =
        "d.status = "
            + pending
            + " AND d.next_attempt_at <= "
            + now
            + " AND (d.lease_until IS NULL OR d.lease_until < "
            + now
            + ") AND d.endpoint IN ("
            + String.join(", ", Collections.nCopies(endpoints.size(), "?"))
            + ") AND NOT "
            + ENDPOINT_DISABLED
            + "d.endpoint)";
    return inTransaction(
        "claim webhook deliveries",
        connection -> {
          List<ClaimedDelivery> due = new ArrayList<>();
          try (PreparedStatement select =
              connection.prepareStatement(
                  dialect.claim(
                      CLAIMED_COLUMNS, "webhook_delivery", "d", where, "next_attempt_at"))) {
            int index = 1;
            if (dialect.limitFirst()) {
              select.setInt(index++, limit);
            }
            for (String endpoint : endpoints) {
              select.setString(index++, endpoint);
            }
            if (!dialect.limitFirst()) {
              select.setInt(index, limit);
            }
            try (ResultSet rs = select.executeQuery()) {
              while (rs.next()) {
                due.add(
                    new ClaimedDelivery(
                        rs.getString(1),
                        rs.getString(2),
                        rs.getString(3),
                        rs.getString(4),
                        rs.getInt(5) + 1));
              }
            }
          }
          if (due.isEmpty()) {
            return due;
          }
          try (PreparedStatement lock =
              connection.prepareStatement(
                  "UPDATE webhook_delivery SET lease_owner = ?, lease_until = "
                      + dialect.plus(now)
                      + ", attempts = attempts + 1 WHERE id = ?")) {
            for (ClaimedDelivery delivery : due) {
              lock.setString(1, owner);
              int next = dialect.bind(lock, 2, lease);
              lock.setString(next, delivery.id());
              lock.addBatch();
            }
            lock.executeBatch();
          }
          return due;
        });
  }

  /** Matches the claimed delivery while {@code owner}'s lease on it stands. */
  private String fenced() {
    return " WHERE id = ? AND lease_owner = ? AND status = " + pending;
  }

  @Override
  public boolean markDelivered(ClaimedDelivery delivery, String owner, AttemptResult attempt) {
    String sql =
        "UPDATE webhook_delivery SET status = "
            + delivered
            + ", delivered_at = "
            + dialect.now()
            + ", lease_owner = NULL, lease_until = NULL, last_status = ?, last_error = NULL"
            + fenced();
    return inTransaction(
        "record a webhook delivery",
        connection -> {
          logAttempt(connection, delivery, attempt);
          try (PreparedStatement update = connection.prepareStatement(sql)) {
            setStatus(update, 1, attempt.httpStatus());
            update.setString(2, delivery.id());
            update.setString(3, owner);
            return update.executeUpdate() == 1;
          }
        });
  }

  @Override
  public boolean markFailed(
      ClaimedDelivery delivery, String owner, AttemptResult attempt, Duration retryIn) {
    String sql =
        "UPDATE webhook_delivery SET lease_owner = NULL, lease_until = NULL, last_status = ?,"
            + " last_error = ?, next_attempt_at = "
            + dialect.plus(dialect.now())
            + fenced();
    return inTransaction(
        "record a failed webhook delivery",
        connection -> {
          logAttempt(connection, delivery, attempt);
          try (PreparedStatement update = connection.prepareStatement(sql)) {
            setStatus(update, 1, attempt.httpStatus());
            update.setString(2, truncate(attempt.error()));
            int next = dialect.bind(update, 3, retryIn);
            update.setString(next, delivery.id());
            update.setString(next + 1, owner);
            return update.executeUpdate() == 1;
          }
        });
  }

  @Override
  public boolean markParked(ClaimedDelivery delivery, String owner, AttemptResult attempt) {
    return endAs(parked, delivery, owner, attempt, null);
  }

  @Override
  public boolean markGone(
      ClaimedDelivery delivery, String owner, AttemptResult attempt, String reason) {
    return endAs(disabled, delivery, owner, attempt, reason);
  }

  /**
   * Logs the attempt and gives the delivery {@code status}; with a {@code disabledFor} reason, also
   * disables its endpoint, in the same transaction.
   */
  private boolean endAs(
      String status,
      ClaimedDelivery delivery,
      String owner,
      AttemptResult attempt,
      String disabledFor) {
    String sql =
        "UPDATE webhook_delivery SET status = "
            + status
            + ", lease_owner = NULL, lease_until = NULL, last_status = ?, last_error = ?"
            + fenced();
    return inTransaction(
        "record a webhook delivery's end",
        connection -> {
          logAttempt(connection, delivery, attempt);
          boolean updated;
          try (PreparedStatement update = connection.prepareStatement(sql)) {
            setStatus(update, 1, attempt.httpStatus());
            update.setString(2, truncate(attempt.error()));
            update.setString(3, delivery.id());
            update.setString(4, owner);
            updated = update.executeUpdate() == 1;
          }
          if (disabledFor != null) {
            disableEndpoint(connection, delivery.endpoint(), disabledFor);
          }
          return updated;
        });
  }

  private void logAttempt(Connection connection, ClaimedDelivery delivery, AttemptResult attempt)
      throws SQLException {
    // The attempt began its duration before now, on the database's clock like every other time.
    try (PreparedStatement insert =
        connection.prepareStatement(
            "INSERT INTO webhook_delivery_attempt (id, delivery_id, attempt_number, attempted_at,"
                + " http_status, error, duration_ms) VALUES (?, ?, ?, "
                + dialect.plus(dialect.now())
                + ", ?, ?, ?)")) {
      insert.setString(1, UUID.randomUUID().toString());
      insert.setString(2, delivery.id());
      insert.setInt(3, delivery.attempts());
      int next = dialect.bind(insert, 4, Duration.ofMillis(-attempt.durationMillis()));
      setStatus(insert, next, attempt.httpStatus());
      insert.setString(next + 1, truncate(attempt.error()));
      insert.setLong(next + 2, attempt.durationMillis());
      insert.executeUpdate();
    }
  }

  /**
   * Writes the endpoint's disabled row unless present, and disables its pending deliveries that no
   * dispatcher holds (one it holds ends on its own, and waits like the others if it fails).
   *
   * @return true if this call disabled it
   */
  private boolean disableEndpoint(Connection connection, String endpoint, String reason)
      throws SQLException {
    String now = dialect.now();
    boolean inserted;
    try (PreparedStatement insert =
        connection.prepareStatement(
            "INSERT INTO webhook_endpoint_state (endpoint, disabled_at, disabled_reason) SELECT ?, "
                + now
                + ", ?"
                + dialect.unlessPresent("webhook_endpoint_state", "endpoint = ?"))) {
      insert.setString(1, endpoint);
      insert.setString(2, truncate(reason));
      if (dialect.bindsKeyAgain()) {
        insert.setString(3, endpoint);
      }
      inserted = insert.executeUpdate() == 1;
    } catch (SQLException e) {
      if (!SqlDialect.isDuplicateKey(e)) {
        throw e;
      }
      inserted = false;
    }
    try (PreparedStatement update =
        connection.prepareStatement(
            "UPDATE webhook_delivery SET status = "
                + disabled
                + " WHERE endpoint = ? AND status = "
                + pending
                + " AND (lease_until IS NULL OR lease_until < "
                + now
                + ")")) {
      update.setString(1, endpoint);
      update.executeUpdate();
    }
    return inserted;
  }

  @Override
  public List<WebhookDelivery> parked(int limit) {
    if (limit < 1) {
      return List.of();
    }
    return deliveries(
        "SELECT "
            + DELIVERY_COLUMNS
            + " FROM webhook_delivery d WHERE d.status = "
            + parked
            + " ORDER BY d.created_at OFFSET 0 ROWS FETCH NEXT ? ROWS ONLY",
        statement -> statement.setInt(1, limit));
  }

  @Override
  public List<WebhookDelivery> deliveriesOf(String eventId) {
    return deliveries(
        "SELECT "
            + DELIVERY_COLUMNS
            + " FROM webhook_delivery d WHERE d.event_id = ? ORDER BY d.endpoint",
        statement -> statement.setString(1, eventId));
  }

  @Override
  public Optional<WebhookDelivery> find(String deliveryId) {
    return deliveries(
            "SELECT " + DELIVERY_COLUMNS + " FROM webhook_delivery d WHERE d.id = ?",
            statement -> statement.setString(1, deliveryId))
        .stream()
        .findFirst();
  }

  @Override
  public List<DeliveryAttempt> attempts(String deliveryId) {
    List<DeliveryAttempt> attempts = new ArrayList<>();
    try (Connection connection = dataSource.getConnection();
        PreparedStatement select =
            connection.prepareStatement(
                "SELECT delivery_id, attempt_number, attempted_at, http_status, error, duration_ms"
                    + " FROM webhook_delivery_attempt WHERE delivery_id = ?"
                    + " ORDER BY attempted_at, attempt_number")) {
      select.setString(1, deliveryId);
      try (ResultSet rs = select.executeQuery()) {
        while (rs.next()) {
          attempts.add(
              new DeliveryAttempt(
                  rs.getString(1),
                  rs.getInt(2),
                  instant(rs, 3),
                  integer(rs, 4),
                  rs.getString(5),
                  rs.getLong(6)));
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read a delivery's attempts: " + e.getMessage(), e);
    }
    return attempts;
  }

  @Override
  public boolean retry(String deliveryId) {
    String sql =
        "UPDATE webhook_delivery SET status = CASE WHEN "
            + ENDPOINT_DISABLED
            + "webhook_delivery.endpoint) THEN "
            + disabled
            + " ELSE "
            + pending
            + " END, attempts = 0, next_attempt_at = "
            + dialect.now()
            + ", lease_owner = NULL, lease_until = NULL WHERE id = ? AND status = "
            + parked;
    return inTransaction(
        "retry a parked webhook delivery",
        connection -> {
          try (PreparedStatement update = connection.prepareStatement(sql)) {
            update.setString(1, deliveryId);
            return update.executeUpdate() == 1;
          }
        });
  }

  @Override
  public boolean disable(String endpoint, String reason) {
    return inTransaction(
        "disable a webhook endpoint", connection -> disableEndpoint(connection, endpoint, reason));
  }

  @Override
  public boolean enable(String endpoint) {
    return inTransaction(
        "re-enable a webhook endpoint",
        connection -> {
          try (PreparedStatement delete =
              connection.prepareStatement(
                  "DELETE FROM webhook_endpoint_state WHERE endpoint = ?")) {
            delete.setString(1, endpoint);
            if (delete.executeUpdate() == 0) {
              return false;
            }
          }
          try (PreparedStatement update =
              connection.prepareStatement(
                  "UPDATE webhook_delivery SET status = "
                      + pending
                      + ", attempts = 0, next_attempt_at = "
                      + dialect.now()
                      + " WHERE endpoint = ? AND status = "
                      + disabled)) {
            update.setString(1, endpoint);
            update.executeUpdate();
          }
          return true;
        });
  }

  @Override
  public List<DisabledEndpoint> disabledEndpoints() {
    List<DisabledEndpoint> endpoints = new ArrayList<>();
    try (Connection connection = dataSource.getConnection();
        PreparedStatement select =
            connection.prepareStatement(
                "SELECT endpoint, disabled_at, disabled_reason FROM webhook_endpoint_state"
                    + " ORDER BY endpoint");
        ResultSet rs = select.executeQuery()) {
      while (rs.next()) {
        endpoints.add(new DisabledEndpoint(rs.getString(1), instant(rs, 2), rs.getString(3)));
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read disabled endpoints: " + e.getMessage(), e);
    }
    return endpoints;
  }

  private interface Binder {
    void bind(PreparedStatement statement) throws SQLException;
  }

  private interface Work<T> {
    T run(Connection connection) throws SQLException;
  }

  private List<WebhookDelivery> deliveries(String sql, Binder binder) {
    List<WebhookDelivery> deliveries = new ArrayList<>();
    try (Connection connection = dataSource.getConnection();
        PreparedStatement select = connection.prepareStatement(sql)) {
      binder.bind(select);
      try (ResultSet rs = select.executeQuery()) {
        while (rs.next()) {
          deliveries.add(
              new WebhookDelivery(
                  rs.getString(1),
                  rs.getString(2),
                  rs.getString(3),
                  rs.getString(4),
                  DeliveryStatus.valueOf(rs.getString(5)),
                  rs.getInt(6),
                  instant(rs, 7),
                  integer(rs, 8),
                  rs.getString(9),
                  instant(rs, 10),
                  instant(rs, 11)));
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read webhook deliveries: " + e.getMessage(), e);
    }
    return deliveries;
  }

  /** Runs {@code work} in a local transaction of its own, committed if it returns. */
  private <T> T inTransaction(String what, Work<T> work) {
    try (Connection connection = dataSource.getConnection()) {
      boolean autoCommit = connection.getAutoCommit();
      connection.setAutoCommit(false);
      try {
        T result = work.run(connection);
        connection.commit();
        return result;
      } catch (SQLException | RuntimeException e) {
        connection.rollback();
        throw e;
      } finally {
        connection.setAutoCommit(autoCommit);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot " + what + ": " + e.getMessage(), e);
    }
  }

  private static void setStatus(PreparedStatement statement, int index, Integer status)
      throws SQLException {
    if (status == null) {
      statement.setNull(index, java.sql.Types.INTEGER);
    } else {
      statement.setInt(index, status);
    }
  }

  private static Instant instant(ResultSet rs, int column) throws SQLException {
    OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
    return value == null ? null : value.toInstant();
  }

  private static Integer integer(ResultSet rs, int column) throws SQLException {
    int value = rs.getInt(column);
    return rs.wasNull() ? null : value;
  }

  private static String truncate(String text) {
    if (text == null) {
      return null;
    }
    return text.length() <= MAX_TEXT ? text : text.substring(0, MAX_TEXT);
  }
}
