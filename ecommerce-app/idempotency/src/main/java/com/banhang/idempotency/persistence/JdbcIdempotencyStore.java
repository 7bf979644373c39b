package com.banhang.idempotency.persistence;

import com.banhang.idempotency.ClaimedKey;
import com.banhang.idempotency.IdempotencyStoreUnavailableException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The statements every database shares; subclasses supply the claim routine and the few clauses
 * whose syntax differs. Connections come from the data source per call, so inside a JTA transaction
 * they are the transaction's connection and outside one they commit on their own.
 */
public abstract class JdbcIdempotencyStore implements IdempotencyStore {

  /** Columns in the order {@link #readRecord} expects them. */
  protected static final String COLUMNS =
      "tenant_id, operation, idempotency_key, request_hash, status, outcome, attempt, locked_until,"
          + " created_at, completed_at, expires_at, response_code, response_headers, response_body";

  private static final String WHERE_OWNED =
      " WHERE tenant_id = ? AND operation = ? AND idempotency_key = ? AND attempt = ?"
          + " AND status = 'PROCESSING'";

  protected final DataSource dataSource;
  private ResponseBodyCipher cipher = ResponseBodyCipher.NONE;

  protected JdbcIdempotencyStore(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /** Encrypts the bodies this store writes from now on (and decrypts what it reads). */
  public JdbcIdempotencyStore encryptingBodiesWith(ResponseBodyCipher cipher) {
    this.cipher = cipher;
    return this;
  }

  /**
   * Picks the implementation for the database behind {@code dataSource}, by the product name its
   * driver reports, so that the dialect never has to be configured by hand.
   */
  public static JdbcIdempotencyStore forDataSource(DataSource dataSource) {
    String product;
    try (Connection connection = dataSource.getConnection()) {
      product = connection.getMetaData().getDatabaseProductName();
    } catch (SQLException e) {
      throw unavailable("cannot reach the idempotency store", e);
    }
    if (product.startsWith("Microsoft SQL Server")) {
      return new SqlServerIdempotencyStore(dataSource);
    }
    if (product.startsWith("PostgreSQL")) {
      return new PostgresIdempotencyStore(dataSource);
    }
    if (product.startsWith("H2")) {
      return new H2IdempotencyStore(dataSource);
    }
    throw new IdempotencyStoreUnavailableException(
        "no idempotency store for database " + product, null);
  }

  @Override
  public boolean complete(ClaimedKey claim, StoredResponse response) {
    OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
    return executeUpdate(
            "UPDATE idempotency_record SET status = 'COMPLETED', outcome = NULL, response_code = ?,"
                + " response_headers = ?, response_body = ?, resource_ref = ?, completed_at = ?,"
                + " locked_until = ?"
                + WHERE_OWNED,
            response.status(),
            response.headersAsText(),
            cipher.seal(response.body(), claim.tenant(), claim.operation(), claim.key()),
            response.location(),
            now,
            now,
            claim.tenant(),
            claim.operation(),
            claim.key(),
            claim.attempt())
        == 1;
  }

  @Override
  public boolean markOutcomeUnknown(ClaimedKey claim, StoredResponse problemForRetries) {
    return executeUpdate(
            "UPDATE idempotency_record SET outcome = 'UNKNOWN', response_code = ?,"
                + " response_headers = ?, response_body = ?"
                + WHERE_OWNED,
            problemForRetries.status(),
            problemForRetries.headersAsText(),
            cipher.seal(problemForRetries.body(), claim.tenant(), claim.operation(), claim.key()),
            claim.tenant(),
            claim.operation(),
            claim.key(),
            claim.attempt())
        == 1;
  }

  @Override
  public boolean release(ClaimedKey claim) {
    OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
    return executeUpdate(
            "UPDATE idempotency_record SET status = 'RELEASED', outcome = NULL,"
                + " response_code = NULL, response_headers = NULL, response_body = NULL,"
                + " resource_ref = NULL, completed_at = ?, locked_until = ?"
                + WHERE_OWNED,
            now,
            now,
            claim.tenant(),
            claim.operation(),
            claim.key(),
            claim.attempt())
        == 1;
  }

  @Override
  public Optional<IdempotencyRecord> find(String tenant, String operation, String key) {
    List<IdempotencyRecord> found =
        query(
            "SELECT "
                + COLUMNS
                + " FROM idempotency_record"
                + " WHERE tenant_id = ? AND operation = ? AND idempotency_key = ?",
            tenant,
            operation,
            key);
    return found.stream().findFirst();
  }

  @Override
  public List<IdempotencyRecord> findProcessing(
      String operation, Instant claimedBefore, int limit) {
    // OFFSET/FETCH is understood alike by SQL Server, PostgreSQL and H2.
    return query(
        "SELECT "
            + COLUMNS
            + " FROM idempotency_record WHERE operation = ? AND status = 'PROCESSING'"
            + " AND created_at < ? ORDER BY created_at OFFSET 0 ROWS FETCH NEXT ? ROWS ONLY",
        operation,
        claimedBefore.atOffset(ZoneOffset.UTC),
        limit);
  }

  protected int executeUpdate(String sql, Object... parameters) {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement = connection.prepareStatement(sql)) {
      bind(statement, parameters);
      return statement.executeUpdate();
    } catch (SQLException e) {
      throw unavailable("cannot write to the idempotency store", e);
    }
  }

  private List<IdempotencyRecord> query(String sql, Object... parameters) {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement = connection.prepareStatement(sql)) {
      bind(statement, parameters);
      List<IdempotencyRecord> records = new ArrayList<>();
      try (ResultSet rs = statement.executeQuery()) {
        while (rs.next()) {
          records.add(readRecord(rs, 1));
        }
      }
      return records;
    } catch (SQLException e) {
      throw unavailable("cannot read the idempotency store", e);
    }
  }

  protected static void bind(PreparedStatement statement, Object... parameters)
      throws SQLException {
    for (int i = 0; i < parameters.length; i++) {
      Object value = parameters[i];
      if (value instanceof byte[] bytes) {
        statement.setBytes(i + 1, bytes);
      } else if (value == null) {
        statement.setNull(i + 1, java.sql.Types.VARCHAR);
      } else {
        statement.setObject(i + 1, value);
      }
    }
  }

  protected static OffsetDateTime utcNow() {
    return OffsetDateTime.now(ZoneOffset.UTC);
  }

  /** Reads the {@link #COLUMNS} starting at column {@code first}. */
  protected IdempotencyRecord readRecord(ResultSet rs, int first) throws SQLException {
    int i = first;
    String tenant = rs.getString(i++);
    String operation = rs.getString(i++);
    String key = rs.getString(i++);
    String requestHash = rs.getString(i++);
    RecordStatus status = RecordStatus.valueOf(rs.getString(i++).trim());
    boolean outcomeUnknown = "UNKNOWN".equals(rs.getString(i++));
    int attempt = rs.getInt(i++);
    Instant lockedUntil = instant(rs, i++);
    Instant createdAt = instant(rs, i++);
    Instant completedAt = instant(rs, i++);
    Instant expiresAt = instant(rs, i++);
    int code = rs.getInt(i++);
    boolean hasResponse = !rs.wasNull();
    String headers = rs.getString(i++);
    byte[] body = cipher.open(rs.getBytes(i), tenant, operation, key);
    StoredResponse response =
        hasResponse
            ? new StoredResponse(code, StoredResponse.headersFromText(headers), body)
            : null;
    return new IdempotencyRecord(
        tenant,
        operation,
        key,
        requestHash,
        status,
        outcomeUnknown,
        attempt,
        lockedUntil,
        createdAt,
        completedAt,
        expiresAt,
        response);
  }

  private static Instant instant(ResultSet rs, int column) throws SQLException {
    OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
    return value == null ? null : value.toInstant();
  }

  protected static IdempotencyStoreUnavailableException unavailable(String what, SQLException e) {
    return new IdempotencyStoreUnavailableException(what + ": " + e.getMessage(), e);
  }
}
