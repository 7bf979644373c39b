package com.banhang.gateway.sandbox.webhook;

import com.banhang.gateway.sandbox.charge.ChargeStoreException;
import com.banhang.gateway.sandbox.charge.Pause;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The webhook events and their attempts, in tables {@code gateway_webhook_event} and {@code
 * gateway_webhook_attempt}, with plain JDBC for the same reason as the charges (no clash with a
 * hosting application's persistence unit); SQL plain enough for H2 2.x and PostgreSQL. An event is
 * inserted on the charge's connection, inside the charge's transaction ({@link #insert}); every
 * other statement runs on its own in auto-commit mode.
 */
public class WebhookRepository {

  /** SQLSTATE of a unique violation, on H2 and PostgreSQL alike. */
  private static final String UNIQUE_VIOLATION = "23505";

  private static final int SCHEMA_ATTEMPTS = 5;
  private static final long SCHEMA_RETRY_INTERVAL_MS = 100;

  /** Tries at numbering an attempt when a concurrent attempt of the same event took the number. */
  private static final int NUMBERING_ATTEMPTS = 5;

  /** The longest error text kept: the column's width. */
  static final int MAX_ERROR_LENGTH = 500;

  private static final List<String> SCHEMA =
      List.of(
          """
          CREATE TABLE IF NOT EXISTS gateway_webhook_event (
              id VARCHAR(64) NOT NULL PRIMARY KEY,
              event_type VARCHAR(32) NOT NULL,
              charge_id VARCHAR(64) NOT NULL,
              payload VARCHAR(4000) NOT NULL,
              created_at TIMESTAMP WITH TIME ZONE NOT NULL,
              delivery_state VARCHAR(16) NOT NULL,
              next_attempt_at TIMESTAMP WITH TIME ZONE NOT NULL,
              failed_attempts INTEGER NOT NULL,
              held BOOLEAN NOT NULL,
              lose_first_attempt BOOLEAN NOT NULL,
              duplicate_delivery BOOLEAN NOT NULL,
              early_delivery BOOLEAN NOT NULL,
              CONSTRAINT gateway_webhook_event_charge_uq UNIQUE (charge_id, event_type)
          )""",
          """
          CREATE INDEX IF NOT EXISTS gateway_webhook_event_due_ix
              ON gateway_webhook_event (delivery_state, next_attempt_at)""",
          """
          CREATE INDEX IF NOT EXISTS gateway_webhook_event_created_ix
              ON gateway_webhook_event (created_at)""",
          """
          CREATE TABLE IF NOT EXISTS gateway_webhook_attempt (
              event_id VARCHAR(64) NOT NULL,
              attempt_number INTEGER NOT NULL,
              attempt_kind VARCHAR(16) NOT NULL,
              started_at TIMESTAMP WITH TIME ZONE NOT NULL,
              status_code INTEGER,
              error_message VARCHAR(500),
              duration_ms BIGINT NOT NULL,
              CONSTRAINT gateway_webhook_attempt_pk PRIMARY KEY (event_id, attempt_number)
          )""");

  private static final String COLUMNS =
      """
      id, event_type, charge_id, payload, created_at, delivery_state, next_attempt_at,
      failed_attempts, held, lose_first_attempt, duplicate_delivery, early_delivery""";

  private final DataSource dataSource;

  /**
   * @param dataSource where the tables live (the charges' database)
   */
  public WebhookRepository(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /**
   * Creates the tables and indexes unless they exist; safe on every start and by several servers at
   * once, as the charges' schema is (the loser of a race retries).
   */
  public void createSchemaIfAbsent() {
    SQLException last = null;
    for (int attempt = 1; attempt <= SCHEMA_ATTEMPTS; attempt++) {
      try (Connection connection = dataSource.getConnection();
          Statement statement = connection.createStatement()) {
        for (String ddl : SCHEMA) {
          statement.execute(ddl);
        }
        return;
      } catch (SQLException e) {
        last = e;
        Pause.SLEEP.pause(SCHEMA_RETRY_INTERVAL_MS * attempt);
      }
    }
    throw new ChargeStoreException("could not create the webhook tables", last);
  }

  /** Inserts an event on {@code connection}, in whatever transaction it has open. */
  public void insert(Connection connection, WebhookEvent event) throws SQLException {
    String sql =
        "INSERT INTO gateway_webhook_event ("
            + COLUMNS
            + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      statement.setString(1, event.id());
      statement.setString(2, event.type().wireName());
      statement.setString(3, event.chargeId());
      statement.setString(4, event.payload());
      statement.setObject(5, utc(event.createdAt()));
      statement.setString(6, event.state().wireName());
      statement.setObject(7, utc(event.nextAttemptAt()));
      statement.setInt(8, event.failedAttempts());
      statement.setBoolean(9, event.held());
      statement.setBoolean(10, event.loseFirstAttempt());
      statement.setBoolean(11, event.duplicate());
      statement.setBoolean(12, event.early());
      statement.executeUpdate();
    }
  }

  /** The event with this id. */
  public Optional<WebhookEvent> findById(String eventId) {
    List<WebhookEvent> found =
        events("SELECT " + COLUMNS + " FROM gateway_webhook_event WHERE id = ?", eventId);
    return found.stream().findFirst();
  }

  /** The event of a charge (there is one per charge: its succeeded or failed). */
  public Optional<WebhookEvent> findByChargeId(String chargeId) {
    List<WebhookEvent> found =
        events(
            "SELECT " + COLUMNS + " FROM gateway_webhook_event WHERE charge_id = ? ORDER BY id",
            chargeId);
    return found.stream().findFirst();
  }

  /** Events created at or after {@code since}, oldest first, at most {@code limit}. */
  public List<WebhookEvent> createdSince(Instant since, int limit) {
    return events(
        "SELECT "
            + COLUMNS
            + " FROM gateway_webhook_event WHERE created_at >= ? ORDER BY created_at, id LIMIT ?",
        utc(since),
        limit);
  }

  /** Pending events whose next attempt is due at {@code now}, the earliest due first. */
  public List<WebhookEvent> due(Instant now, int limit) {
    return events(
        "SELECT "
            + COLUMNS
            + " FROM gateway_webhook_event WHERE delivery_state = ? AND next_attempt_at <= ?"
            + " ORDER BY next_attempt_at, created_at, id LIMIT ?",
        WebhookEventState.PENDING.wireName(),
        utc(now),
        limit);
  }

  /** The attempts of these events, in the order they were made, by event id. */
  public Map<String, List<WebhookAttempt>> attemptsOf(Collection<String> eventIds) {
    Map<String, List<WebhookAttempt>> attempts = new LinkedHashMap<>();
    eventIds.forEach(id -> attempts.put(id, new ArrayList<>()));
    String sql =
        """
        SELECT event_id, attempt_number, attempt_kind, started_at, status_code, error_message,
            duration_ms
        FROM gateway_webhook_attempt WHERE event_id = ? ORDER BY attempt_number""";
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement = connection.prepareStatement(sql)) {
      for (String eventId : eventIds) {
        statement.setString(1, eventId);
        try (ResultSet rows = statement.executeQuery()) {
          while (rows.next()) {
            int status = rows.getInt("status_code");
            Integer statusCode = rows.wasNull() ? null : status;
            attempts
                .get(eventId)
                .add(
                    new WebhookAttempt(
                        eventId,
                        rows.getInt("attempt_number"),
                        WebhookAttemptKind.fromWireName(rows.getString("attempt_kind")),
                        rows.getObject("started_at", OffsetDateTime.class).toInstant(),
                        statusCode,
                        rows.getString("error_message"),
                        rows.getLong("duration_ms")));
          }
        }
      }
      return attempts;
    } catch (SQLException e) {
      throw new ChargeStoreException("could not read webhook attempts", e);
    }
  }

  /**
   * Records an attempt under the next free number of its event. Two attempts of one event at once
   * (a resend beside a scheduled delivery) may pick one number: the primary key refuses the second,
   * which takes the next.
   */
  public WebhookAttempt recordAttempt(
      String eventId,
      WebhookAttemptKind kind,
      Instant startedAt,
      Integer statusCode,
      String error,
      long durationMs) {
    String next =
        "SELECT COALESCE(MAX(attempt_number), 0) + 1 FROM gateway_webhook_attempt WHERE event_id = ?";
    String insert =
        """
        INSERT INTO gateway_webhook_attempt (event_id, attempt_number, attempt_kind, started_at,
            status_code, error_message, duration_ms)
        VALUES (?, ?, ?, ?, ?, ?, ?)""";
    String shortError =
        error == null || error.length() <= MAX_ERROR_LENGTH
            ? error
            : error.substring(0, MAX_ERROR_LENGTH);
    SQLException last = null;
    for (int attempt = 1; attempt <= NUMBERING_ATTEMPTS; attempt++) {
      try (Connection connection = dataSource.getConnection();
          PreparedStatement numbering = connection.prepareStatement(next);
          PreparedStatement statement = connection.prepareStatement(insert)) {
        numbering.setString(1, eventId);
        int number;
        try (ResultSet rows = numbering.executeQuery()) {
          rows.next();
          number = rows.getInt(1);
        }
        statement.setString(1, eventId);
        statement.setInt(2, number);
        statement.setString(3, kind.wireName());
        statement.setObject(4, utc(startedAt));
        if (statusCode == null) {
          statement.setNull(5, Types.INTEGER);
        } else {
          statement.setInt(5, statusCode);
        }
        statement.setString(6, shortError);
        statement.setLong(7, durationMs);
        statement.executeUpdate();
        return new WebhookAttempt(
            eventId, number, kind, startedAt, statusCode, shortError, durationMs);
      } catch (SQLException e) {
        if (!isUniqueViolation(e)) {
          throw new ChargeStoreException("could not record a webhook attempt", e);
        }
        last = e;
      }
    }
    throw new ChargeStoreException("could not number a webhook attempt", last);
  }

  /** The shop took the event. */
  public void markDelivered(String eventId) {
    update(
        "UPDATE gateway_webhook_event SET delivery_state = ?, held = FALSE WHERE id = ?",
        WebhookEventState.DELIVERED.wireName(),
        eventId);
  }

  /** A scheduled attempt failed: the event is due again at {@code nextAttemptAt}. */
  public void scheduleRetry(String eventId, int failedAttempts, Instant nextAttemptAt) {
    update(
        """
        UPDATE gateway_webhook_event SET failed_attempts = ?, next_attempt_at = ?, held = FALSE
        WHERE id = ? AND delivery_state = ?""",
        failedAttempts,
        utc(nextAttemptAt),
        eventId,
        WebhookEventState.PENDING.wireName());
  }

  /** The last scheduled attempt failed: no more until a resend. */
  public void markFailed(String eventId, int failedAttempts) {
    update(
        """
        UPDATE gateway_webhook_event SET delivery_state = ?, failed_attempts = ?, held = FALSE
        WHERE id = ? AND delivery_state = ?""",
        WebhookEventState.FAILED.wireName(),
        failedAttempts,
        eventId,
        WebhookEventState.PENDING.wireName());
  }

  /**
   * Releases the held events created before {@code sent} (by creation time, then id): a later event
   * has been sent, so they are now out of order and due at {@code now}.
   *
   * @return how many were released
   */
  public int releaseHeldBefore(WebhookEvent sent, Instant now) {
    return update(
        """
        UPDATE gateway_webhook_event SET held = FALSE, next_attempt_at = ?
        WHERE held = TRUE AND delivery_state = ?
            AND (created_at < ? OR (created_at = ? AND id < ?))""",
        utc(now),
        WebhookEventState.PENDING.wireName(),
        utc(sent.createdAt()),
        utc(sent.createdAt()),
        sent.id());
  }

  private List<WebhookEvent> events(String sql, Object... parameters) {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement = connection.prepareStatement(sql)) {
      bind(statement, parameters);
      List<WebhookEvent> events = new ArrayList<>();
      try (ResultSet rows = statement.executeQuery()) {
        while (rows.next()) {
          events.add(toEvent(rows));
        }
      }
      return events;
    } catch (SQLException e) {
      throw new ChargeStoreException("could not read webhook events", e);
    }
  }

  private int update(String sql, Object... parameters) {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement = connection.prepareStatement(sql)) {
      bind(statement, parameters);
      return statement.executeUpdate();
    } catch (SQLException e) {
      throw new ChargeStoreException("could not update a webhook event", e);
    }
  }

  private static void bind(PreparedStatement statement, Object... parameters) throws SQLException {
    for (int i = 0; i < parameters.length; i++) {
      statement.setObject(i + 1, parameters[i]);
    }
  }

  private static WebhookEvent toEvent(ResultSet row) throws SQLException {
    String typeName = row.getString("event_type");
    return new WebhookEvent(
        row.getString("id"),
        WebhookEventType.fromWireName(typeName)
            .orElseThrow(() -> new SQLException("unknown event type " + typeName)),
        row.getString("charge_id"),
        row.getString("payload"),
        row.getObject("created_at", OffsetDateTime.class).toInstant(),
        WebhookEventState.fromWireName(row.getString("delivery_state")),
        row.getObject("next_attempt_at", OffsetDateTime.class).toInstant(),
        row.getInt("failed_attempts"),
        row.getBoolean("held"),
        row.getBoolean("lose_first_attempt"),
        row.getBoolean("duplicate_delivery"),
        row.getBoolean("early_delivery"));
  }

  private static OffsetDateTime utc(Instant instant) {
    return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
  }

  private static boolean isUniqueViolation(SQLException e) {
    for (Throwable current = e; current != null; current = current.getCause()) {
      if (current instanceof SQLException sql && UNIQUE_VIOLATION.equals(sql.getSQLState())) {
        return true;
      }
    }
    return false;
  }
}
