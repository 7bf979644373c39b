package com.banhang.gateway.sandbox.charge;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import javax.sql.DataSource;

/**
 * The charges, in table {@code gateway_charge}, with plain JDBC: JPA here would clash with the
 * persistence unit of an application that hosts the sandbox. Every statement runs on its own in
 * auto-commit mode, except the insert of a charge, which commits the charge together with what its
 * {@link ChargeCommitHook} writes (its webhook event); either way a charge is committed (and
 * visible to lookups) as soon as {@link #insert} returns.
 *
 * <p>The SQL is plain enough for H2 2.x and PostgreSQL alike.
 */
public class ChargeRepository {

  /**
   * SQLSTATE of a unique violation, on H2 and PostgreSQL alike. Other integrity errors are bugs,
   * not races.
   */
  private static final String UNIQUE_VIOLATION = "23505";

  private static final int SCHEMA_ATTEMPTS = 5;
  private static final long SCHEMA_RETRY_INTERVAL_MS = 100;

  private static final String CREATE_TABLE =
      """
            CREATE TABLE IF NOT EXISTS gateway_charge (
                id VARCHAR(64) NOT NULL PRIMARY KEY,
                idempotency_key VARCHAR(255),
                retired_idempotency_key VARCHAR(255),
                request_hash VARCHAR(64) NOT NULL,
                status VARCHAR(16) NOT NULL,
                amount BIGINT NOT NULL,
                currency VARCHAR(3) NOT NULL,
                order_reference VARCHAR(128) NOT NULL,
                payment_method VARCHAR(128) NOT NULL,
                created_at TIMESTAMP WITH TIME ZONE NOT NULL,
                CONSTRAINT gateway_charge_idempotency_key_uq UNIQUE (idempotency_key)
            )""";

  private static final String CREATE_INDEX =
      """
            CREATE INDEX IF NOT EXISTS gateway_charge_order_reference_ix ON gateway_charge (order_reference)""";

  private static final String COLUMNS =
      """
            id, COALESCE(idempotency_key, retired_idempotency_key) AS charge_key, request_hash, status, amount,
            currency, order_reference, payment_method, created_at""";

  private final DataSource dataSource;
  private final ChargeCommitHook commitHook;

  /**
   * A repository whose charges carry nothing else.
   *
   * @param dataSource where the table lives
   */
  public ChargeRepository(DataSource dataSource) {
    this(dataSource, ChargeCommitHook.NONE);
  }

  /**
   * @param dataSource where the table lives
   * @param commitHook writes in each new charge's transaction
   */
  public ChargeRepository(DataSource dataSource, ChargeCommitHook commitHook) {
    this.dataSource = dataSource;
    this.commitHook = commitHook;
  }

  /**
   * Creates the table and its index unless they exist. Safe to run on every start, also by several
   * servers or applications at once on one database: "IF NOT EXISTS" is not atomic on H2 or
   * PostgreSQL, so the loser of a race gets an error once, and the next attempt finds everything in
   * place.
   */
  public void createSchemaIfAbsent() {
    SQLException last = null;
    for (int attempt = 1; attempt <= SCHEMA_ATTEMPTS; attempt++) {
      try (Connection connection = dataSource.getConnection();
          Statement statement = connection.createStatement()) {
        statement.execute(CREATE_TABLE);
        statement.execute(CREATE_INDEX);
        return;
      } catch (SQLException e) {
        last = e;
        Pause.SLEEP.pause(SCHEMA_RETRY_INTERVAL_MS * attempt);
      }
    }
    throw new ChargeStoreException("could not create table gateway_charge", last);
  }

  /** The charge that holds the key now (a key stops holding its charge once retired). */
  public Optional<Charge> findByKey(String idempotencyKey) {
    String sql = "SELECT " + COLUMNS + " FROM gateway_charge WHERE idempotency_key = ?";
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement = connection.prepareStatement(sql)) {
      statement.setString(1, idempotencyKey);
      try (ResultSet rows = statement.executeQuery()) {
        return rows.next() ? Optional.of(toCharge(rows)) : Optional.empty();
      }
    } catch (SQLException e) {
      throw new ChargeStoreException("could not read a charge by key", e);
    }
  }

  /**
   * A charge by its id, whether or not its key still holds it: an id names one charge for ever, so
   * an operator can confirm a charge after the key retention has run out.
   */
  public Optional<Charge> findById(String chargeId) {
    String sql = "SELECT " + COLUMNS + " FROM gateway_charge WHERE id = ?";
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement = connection.prepareStatement(sql)) {
      statement.setString(1, chargeId);
      try (ResultSet rows = statement.executeQuery()) {
        return rows.next() ? Optional.of(toCharge(rows)) : Optional.empty();
      }
    } catch (SQLException e) {
      throw new ChargeStoreException("could not read a charge by id", e);
    }
  }

  /**
   * Inserts a charge unless its key is taken, in one transaction with what the {@link
   * ChargeCommitHook} writes for it. The unique constraint decides, so of any number of concurrent
   * inserts with one key exactly one returns true; the others roll back and leave nothing.
   *
   * @return true if this charge was stored, false if another charge holds the key
   */
  public boolean insert(Charge charge) {
    String sql =
        """
                INSERT INTO gateway_charge (id, idempotency_key, request_hash, status, amount, currency,
                    order_reference, payment_method, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)""";
    try (Connection connection = dataSource.getConnection()) {
      boolean autoCommit = connection.getAutoCommit();
      connection.setAutoCommit(false);
      try (PreparedStatement statement = connection.prepareStatement(sql)) {
        statement.setString(1, charge.id());
        statement.setString(2, charge.idempotencyKey());
        statement.setString(3, charge.requestHash());
        statement.setString(4, charge.status().wireName());
        statement.setLong(5, charge.amount());
        statement.setString(6, charge.currency());
        statement.setString(7, charge.orderReference());
        statement.setString(8, charge.paymentMethod());
        statement.setObject(9, OffsetDateTime.ofInstant(charge.createdAt(), ZoneOffset.UTC));
        statement.executeUpdate();
        commitHook.inTransaction(connection, charge);
        connection.commit();
        return true;
      } catch (SQLException | RuntimeException e) {
        connection.rollback();
        throw e;
      } finally {
        // A pooled connection goes back as it came.
        connection.setAutoCommit(autoCommit);
      }
    } catch (SQLException e) {
      if (isUniqueViolation(e)) {
        return false;
      }
      throw new ChargeStoreException("could not insert a charge", e);
    }
  }

  /**
   * Frees an expired key for a new charge. The old charge keeps its data (and still counts in the
   * stats) but can no longer be found by the key. Only the given charge's hold is released, so a
   * racing request that already re-used the key is left alone.
   *
   * @return true if this call released the key
   */
  public boolean retireKey(String chargeId, String idempotencyKey) {
    String sql =
        """
                UPDATE gateway_charge SET idempotency_key = NULL, retired_idempotency_key = ?
                WHERE id = ? AND idempotency_key = ?""";
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement = connection.prepareStatement(sql)) {
      statement.setString(1, idempotencyKey);
      statement.setString(2, chargeId);
      statement.setString(3, idempotencyKey);
      return statement.executeUpdate() == 1;
    } catch (SQLException e) {
      throw new ChargeStoreException("could not retire an idempotency key", e);
    }
  }

  /** Succeeded and declined charges of one order reference. */
  public ChargeCounts countsFor(String orderReference) {
    return counts("WHERE order_reference = ?", orderReference);
  }

  /** Succeeded and declined charges of all order references. */
  public ChargeCounts totals() {
    return counts("", null);
  }

  /**
   * Succeeded charges per order reference, for every reference with at least one, sorted by
   * reference.
   */
  public Map<String, Long> succeededByOrderReference() {
    String sql =
        """
                SELECT order_reference, COUNT(*) AS charges FROM gateway_charge
                WHERE status = ? GROUP BY order_reference""";
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement = connection.prepareStatement(sql)) {
      statement.setString(1, ChargeStatus.SUCCEEDED.wireName());
      Map<String, Long> counts = new TreeMap<>();
      try (ResultSet rows = statement.executeQuery()) {
        while (rows.next()) {
          counts.put(rows.getString("order_reference"), rows.getLong("charges"));
        }
      }
      return counts;
    } catch (SQLException e) {
      throw new ChargeStoreException("could not count charges by order reference", e);
    }
  }

  private ChargeCounts counts(String where, String orderReference) {
    String sql =
        "SELECT status, COUNT(*) AS charges FROM gateway_charge " + where + " GROUP BY status";
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement = connection.prepareStatement(sql)) {
      if (orderReference != null) {
        statement.setString(1, orderReference);
      }
      long succeeded = 0;
      long declined = 0;
      try (ResultSet rows = statement.executeQuery()) {
        while (rows.next()) {
          switch (ChargeStatus.fromWireName(rows.getString("status"))) {
            case SUCCEEDED -> succeeded = rows.getLong("charges");
            case DECLINED -> declined = rows.getLong("charges");
          }
        }
      }
      return new ChargeCounts(succeeded, declined);
    } catch (SQLException e) {
      throw new ChargeStoreException("could not count charges", e);
    }
  }

  private static Charge toCharge(ResultSet row) throws SQLException {
    return new Charge(
        row.getString("id"),
        ChargeStatus.fromWireName(row.getString("status")),
        row.getLong("amount"),
        row.getString("currency"),
        row.getString("order_reference"),
        row.getString("payment_method"),
        row.getString("charge_key"),
        row.getString("request_hash"),
        row.getObject("created_at", OffsetDateTime.class).toInstant());
  }

  private static boolean isUniqueViolation(SQLException e) {
    // Walk the causes too: a connection pool may wrap the driver's exception.
    for (Throwable current = e; current != null; current = current.getCause()) {
      if (current instanceof SQLException sql && UNIQUE_VIOLATION.equals(sql.getSQLState())) {
        return true;
      }
    }
    return false;
  }
}
