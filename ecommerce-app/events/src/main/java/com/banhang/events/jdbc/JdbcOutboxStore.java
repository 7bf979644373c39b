package com.banhang.events.jdbc;

import com.banhang.events.NewEvent;
import com.banhang.events.OutboxEvent;
import com.banhang.events.OutboxStore;
import com.banhang.events.sql.SqlDialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * The outbox and the inbox on H2, PostgreSQL or SQL Server, over a data source. Connections are
 * taken per call: inside a JTA transaction they are the transaction's connection (the recorders'
 * case), outside one the statements that must go together run in a local transaction of their own
 * (the relay's claim). "Now" is always the database's clock, so that every node's leases and
 * retries are measured on one clock.
 */
public final class JdbcOutboxStore implements OutboxStore {

  private static final String COLUMNS =
      "e.id, e.aggregate_type, e.aggregate_id, e.aggregate_sequence, e.type, e.tenant_id,"
          + " e.payload, e.created_at, e.attempts";

  private static final String UNPUBLISHED = "e.published_at IS NULL";

  /**
   * Due, not leased, not parked, and the lowest unpublished event of its aggregate: a later event
   * waits until every earlier one is published, on every node, so the aggregate's order holds.
   */
  private final String claimableWhere;

  private final DataSource dataSource;
  private final SqlDialect dialect;

  private JdbcOutboxStore(DataSource dataSource, SqlDialect dialect) {
    this.dataSource = dataSource;
    this.dialect = dialect;
    String now = dialect.now();
    this.claimableWhere =
        UNPUBLISHED
            + " AND e.parked_at IS NULL AND e.next_attempt_at <= "
            + now
            + " AND (e.lease_until IS NULL OR e.lease_until < "
            + now
            + ") AND NOT EXISTS (SELECT 1 FROM outbox_event p WHERE p.aggregate_type ="
            + " e.aggregate_type AND p.aggregate_id = e.aggregate_id AND p.published_at IS NULL"
            + " AND p.aggregate_sequence < e.aggregate_sequence)";
  }

  /** The store for the database behind {@code dataSource}, by the product name its driver gives. */
  public static JdbcOutboxStore forDataSource(DataSource dataSource) {
    try (Connection connection = dataSource.getConnection()) {
      return new JdbcOutboxStore(
          dataSource, SqlDialect.of(connection.getMetaData().getDatabaseProductName()));
    } catch (SQLException e) {
      throw new IllegalStateException("cannot reach the outbox's database: " + e.getMessage(), e);
    }
  }

  @Override
  public String append(NewEvent event) {
    String id = UUID.randomUUID().toString();
    try (Connection connection = dataSource.getConnection()) {
      // INSERT ... SELECT MAX(...) + 1 takes no lock on rows that do not exist yet: two writers of
      // one aggregate would both pick the same sequence and the second would fail on the unique
      // constraint. PostgreSQL queues them on a lock of the aggregate's key, SQL Server on the
      // key-range lock of the insert's read of the aggregate's index range (the sequence's FROM),
      // and H2, which has neither, retries below.
      if (dialect.keyLock() != null) {
        try (PreparedStatement lock = connection.prepareStatement(dialect.keyLock())) {
          lock.setString(1, event.aggregateType());
          lock.setString(2, event.aggregateId());
          lock.execute();
        }
      }
      for (int attempt = 1; ; attempt++) {
        try {
          insert(connection, id, event);
          return id;
        } catch (SQLException e) {
          // H2 takes no lock for the sequence: a concurrent writer of the same aggregate that
          // took the same number fails here, and its transaction survives the failed statement
          // (H2 does not abort it), so it takes the next number once the other commits.
          if (!SqlDialect.isDuplicateKey(e)
              || dialect != SqlDialect.H2
              || attempt == APPEND_ATTEMPTS) {
            throw e;
          }
          sleep(attempt);
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot write the event to the outbox: " + e.getMessage(), e);
    }
  }

  /** How many times H2 tries a sequence number that a concurrent writer took. */
  private static final int APPEND_ATTEMPTS = 50;

  private void insert(Connection connection, String id, NewEvent event) throws SQLException {
    String now = dialect.now();
    try (PreparedStatement insert =
        connection.prepareStatement(
            "INSERT INTO outbox_event (id, aggregate_type, aggregate_id, aggregate_sequence,"
                + " type, tenant_id, payload, created_at, next_attempt_at)"
                + " SELECT ?, ?, ?, COALESCE(MAX(aggregate_sequence), 0) + 1, ?, ?, ?, "
                + now
                + ", "
                + now
                + " FROM "
                + dialect.rangeLocked("outbox_event")
                + " WHERE aggregate_type = ? AND aggregate_id = ?")) {
      insert.setString(1, id);
      insert.setString(2, event.aggregateType());
      insert.setString(3, event.aggregateId());
      insert.setString(4, event.type());
      insert.setString(5, event.tenantId());
      insert.setString(6, event.payload());
      insert.setString(7, event.aggregateType());
      insert.setString(8, event.aggregateId());
      insert.executeUpdate();
    }
  }

  private static void sleep(int attempt) throws SQLException {
    try {
      Thread.sleep(Math.min(50, 5L * attempt));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SQLException("interrupted while writing the outbox", e);
    }
  }

  @Override
  public List<OutboxEvent> claim(String owner, int limit, Duration lease) {
    if (limit < 1) {
      return List.of();
    }
    try (Connection connection = dataSource.getConnection()) {
      boolean autoCommit = connection.getAutoCommit();
      connection.setAutoCommit(false);
      try {
        List<OutboxEvent> claimed = claim(connection, owner, limit, lease);
        connection.commit();
        return claimed;
      } catch (SQLException | RuntimeException e) {
        connection.rollback();
        throw e;
      } finally {
        connection.setAutoCommit(autoCommit);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot claim outbox events: " + e.getMessage(), e);
    }
  }

  private List<OutboxEvent> claim(Connection connection, String owner, int limit, Duration lease)
      throws SQLException {
    List<OutboxEvent> due = new ArrayList<>();
    try (PreparedStatement select =
        connection.prepareStatement(
            dialect.claim(COLUMNS, "outbox_event", "e", claimableWhere, "created_at"))) {
      // The WHERE takes no parameter: the limit is the only one, wherever the dialect puts it.
      select.setInt(1, limit);
      try (ResultSet rs = select.executeQuery()) {
        while (rs.next()) {
          due.add(event(rs, 1));
        }
      }
    }
    if (due.isEmpty()) {
      return due;
    }
    try (PreparedStatement lock =
        connection.prepareStatement(
            "UPDATE outbox_event SET lease_owner = ?, lease_until = "
                + dialect.plus(dialect.now())
                + ", attempts = attempts + 1 WHERE id = ?")) {
      for (OutboxEvent event : due) {
        lock.setString(1, owner);
        int next = dialect.bind(lock, 2, lease);
        lock.setString(next, event.id());
        lock.addBatch();
      }
      lock.executeBatch();
    }
    List<OutboxEvent> claimed = new ArrayList<>(due.size());
    for (OutboxEvent event : due) {
      claimed.add(
          new OutboxEvent(
              event.id(),
              event.aggregateType(),
              event.aggregateId(),
              event.sequence(),
              event.type(),
              event.tenantId(),
              event.payload(),
              event.createdAt(),
              event.attempts() + 1));
    }
    return claimed;
  }

  @Override
  public boolean markPublished(String eventId, String owner) {
    return update(
        "UPDATE outbox_event SET published_at = "
            + dialect.now()
            + ", lease_owner = NULL, lease_until = NULL, last_error = NULL"
            + " WHERE id = ? AND lease_owner = ? AND published_at IS NULL",
        statement -> {
          statement.setString(1, eventId);
          statement.setString(2, owner);
        });
  }

  @Override
  public boolean markFailed(
      String eventId, String owner, String error, Duration retryAfter, boolean park) {
    String now = dialect.now();
    return update(
        "UPDATE outbox_event SET lease_owner = NULL, lease_until = NULL, last_error = ?,"
            + " next_attempt_at = "
            + dialect.plus(now)
            + ", parked_at = "
            + (park ? now : "NULL")
            + " WHERE id = ? AND lease_owner = ? AND published_at IS NULL",
        statement -> {
          statement.setString(1, truncate(error, 1000));
          int next = dialect.bind(statement, 2, retryAfter);
          statement.setString(next, eventId);
          statement.setString(next + 1, owner);
        });
  }

  @Override
  public List<ParkedEvent> parked(int limit) {
    if (limit < 1) {
      return List.of();
    }
    List<ParkedEvent> parked = new ArrayList<>();
    try (Connection connection = dataSource.getConnection();
        PreparedStatement select =
            connection.prepareStatement(
                "SELECT "
                    + COLUMNS
                    + ", e.last_error, e.parked_at FROM outbox_event e WHERE "
                    + UNPUBLISHED
                    + " AND e.parked_at IS NOT NULL ORDER BY e.parked_at"
                    + " OFFSET 0 ROWS FETCH NEXT ? ROWS ONLY")) {
      select.setInt(1, limit);
      try (ResultSet rs = select.executeQuery()) {
        while (rs.next()) {
          parked.add(new ParkedEvent(event(rs, 1), rs.getString(10), instant(rs, 11)));
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read parked events: " + e.getMessage(), e);
    }
    return parked;
  }

  @Override
  public boolean unpark(String eventId) {
    return update(
        "UPDATE outbox_event SET parked_at = NULL, attempts = 0, next_attempt_at = "
            + dialect.now()
            + " WHERE id = ? AND parked_at IS NOT NULL AND published_at IS NULL",
        statement -> statement.setString(1, eventId));
  }

  @Override
  public Optional<StoredEvent> find(String eventId) {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement select =
            connection.prepareStatement(
                "SELECT "
                    + COLUMNS
                    + ", e.published_at, e.parked_at, e.last_error FROM outbox_event e"
                    + " WHERE e.id = ?")) {
      select.setString(1, eventId);
      try (ResultSet rs = select.executeQuery()) {
        if (!rs.next()) {
          return Optional.empty();
        }
        return Optional.of(
            new StoredEvent(event(rs, 1), instant(rs, 10), instant(rs, 11), rs.getString(12)));
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read the event: " + e.getMessage(), e);
    }
  }

  @Override
  public int purgePublished(Duration age, int limit) {
    if (limit < 1) {
      return 0;
    }
    String where =
        "e.published_at < "
            + dialect.plus(dialect.now())
            + " AND EXISTS (SELECT 1 FROM outbox_event n WHERE n.aggregate_type = e.aggregate_type"
            + " AND n.aggregate_id = e.aggregate_id"
            + " AND n.aggregate_sequence > e.aggregate_sequence)";
    try (Connection connection = dataSource.getConnection();
        PreparedStatement delete =
            connection.prepareStatement(dialect.deleteAtMost("outbox_event", "e", where))) {
      int index = 1;
      if (dialect.limitFirst()) {
        delete.setInt(index++, limit);
      }
      index = dialect.bind(delete, index, age.negated());
      if (!dialect.limitFirst()) {
        delete.setInt(index, limit);
      }
      return delete.executeUpdate();
    } catch (SQLException e) {
      throw new IllegalStateException("cannot purge published events: " + e.getMessage(), e);
    }
  }

  @Override
  public boolean receive(String source, String eventId) {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement insert =
            connection.prepareStatement(
                "INSERT INTO inbox_event (source, event_id, received_at) SELECT ?, ?, "
                    + dialect.now()
                    + dialect.unlessPresent("inbox_event", "source = ? AND event_id = ?"))) {
      insert.setString(1, source);
      insert.setString(2, eventId);
      if (dialect.bindsKeyAgain()) {
        insert.setString(3, source);
        insert.setString(4, eventId);
      }
      return insert.executeUpdate() == 1;
    } catch (SQLException e) {
      if (SqlDialect.isDuplicateKey(e)) {
        // A concurrent consumer of the same event inserted it first and committed.
        return false;
      }
      throw new IllegalStateException("cannot write the inbox: " + e.getMessage(), e);
    }
  }

  private interface Binder {
    void bind(PreparedStatement statement) throws SQLException;
  }

  private boolean update(String sql, Binder binder) {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement = connection.prepareStatement(sql)) {
      binder.bind(statement);
      return statement.executeUpdate() == 1;
    } catch (SQLException e) {
      throw new IllegalStateException("cannot update the outbox: " + e.getMessage(), e);
    }
  }

  private static OutboxEvent event(ResultSet rs, int first) throws SQLException {
    return new OutboxEvent(
        rs.getString(first),
        rs.getString(first + 1),
        rs.getString(first + 2),
        rs.getLong(first + 3),
        rs.getString(first + 4),
        rs.getString(first + 5),
        rs.getString(first + 6),
        instant(rs, first + 7),
        rs.getInt(first + 8));
  }

  private static Instant instant(ResultSet rs, int column) throws SQLException {
    OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
    return value == null ? null : value.toInstant();
  }

  private static String truncate(String text, int max) {
    if (text == null) {
      return null;
    }
    return text.length() <= max ? text : text.substring(0, max);
  }
}
