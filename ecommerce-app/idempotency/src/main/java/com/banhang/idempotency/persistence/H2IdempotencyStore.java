package com.banhang.idempotency.persistence;

import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * H2, the embedded default: H2 has no SQL procedures, so the claim is written here, with the same
 * rules as the procedures of the other databases. The primary key still decides every race: the
 * insert is attempted first and its duplicate-key error means another caller owns the key; a
 * takeover is a compare-and-set on the attempt number the caller read.
 */
public class H2IdempotencyStore extends JdbcIdempotencyStore {

  private static final String DUPLICATE_KEY = "23505";
  private static final int CONCURRENT_UPDATE = 90131;
  private static final int MAX_ROUNDS = 10;

  public H2IdempotencyStore(DataSource dataSource) {
    super(dataSource);
  }

  @Override
  public ClaimResult claim(ClaimRequest request) {
    // A round is lost only when the row vanished (released, purged) between our insert and read.
    for (int round = 0; round < MAX_ROUNDS; round++) {
      OffsetDateTime now = utcNow();
      if (insertNew(request, now)) {
        return new ClaimResult(true, read(request));
      }
      Optional<IdempotencyRecord> existing =
          find(request.tenant(), request.operation(), request.key());
      if (existing.isEmpty()) {
        continue;
      }
      IdempotencyRecord record = existing.get();
      if (mayTakeOver(record, request, now.toInstant()) && takeOver(record, request, now)) {
        return new ClaimResult(true, read(request));
      }
      Optional<IdempotencyRecord> current =
          find(request.tenant(), request.operation(), request.key());
      if (current.isPresent()) {
        return new ClaimResult(false, current.get());
      }
    }
    throw new IllegalStateException("key kept changing while being claimed");
  }

  private IdempotencyRecord read(ClaimRequest request) {
    return find(request.tenant(), request.operation(), request.key())
        .orElseThrow(() -> new IllegalStateException("claimed key vanished"));
  }

  private boolean insertNew(ClaimRequest request, OffsetDateTime now) {
    try {
      executeUpdateOrThrow(
          "INSERT INTO idempotency_record (tenant_id, operation, idempotency_key, request_hash,"
              + " status, attempt, locked_until, created_at, expires_at)"
              + " VALUES (?, ?, ?, ?, 'PROCESSING', 1, ?, ?, ?)",
          request.tenant(),
          request.operation(),
          request.key(),
          request.requestHash(),
          now.plus(request.lease()),
          now,
          now.plus(request.ttl()));
      return true;
    } catch (SQLException e) {
      if (DUPLICATE_KEY.equals(e.getSQLState()) || e.getErrorCode() == CONCURRENT_UPDATE) {
        return false;
      }
      throw unavailable("cannot claim a key", e);
    }
  }

  /** The takeover rules every claim routine shares; see sql/postgresql for the reference. */
  static boolean mayTakeOver(
      IdempotencyRecord record, ClaimRequest request, java.time.Instant now) {
    if (record.status() == RecordStatus.RELEASED) {
      return true;
    }
    if (record.completed()) {
      return !record.expiresAt().isAfter(now);
    }
    return request.takeoverAllowed()
        && !record.outcomeUnknown()
        && !record.lockedUntil().isAfter(now)
        && (record.requestHash().equals(request.requestHash()) || !record.expiresAt().isAfter(now));
  }

  private boolean takeOver(IdempotencyRecord record, ClaimRequest request, OffsetDateTime now) {
    try {
      return executeUpdateOrThrow(
              "UPDATE idempotency_record SET request_hash = ?, status = 'PROCESSING',"
                  + " outcome = NULL, attempt = attempt + 1, locked_until = ?, created_at = ?,"
                  + " completed_at = NULL, expires_at = ?, resource_ref = NULL,"
                  + " response_code = NULL, response_headers = NULL, response_body = NULL"
                  + " WHERE tenant_id = ? AND operation = ? AND idempotency_key = ?"
                  + " AND attempt = ? AND (status = 'RELEASED'"
                  + " OR (status = 'COMPLETED' AND expires_at <= ?)"
                  + " OR (? AND status = 'PROCESSING' AND outcome IS NULL AND locked_until <= ?"
                  + " AND (request_hash = ? OR expires_at <= ?)))",
              request.requestHash(),
              now.plus(request.lease()),
              now,
              now.plus(request.ttl()),
              request.tenant(),
              request.operation(),
              request.key(),
              record.attempt(),
              now,
              request.takeoverAllowed(),
              now,
              request.requestHash(),
              now)
          == 1;
    } catch (SQLException e) {
      if (e.getErrorCode() == CONCURRENT_UPDATE) {
        return false;
      }
      throw unavailable("cannot take over a key", e);
    }
  }

  private int executeUpdateOrThrow(String sql, Object... parameters) throws SQLException {
    try (var connection = dataSource.getConnection();
        var statement = connection.prepareStatement(sql)) {
      requireAutoCommit(connection);
      bind(statement, parameters);
      return statement.executeUpdate();
    }
  }

  @Override
  public int purgeExpired(int batchSize) {
    return executeUpdate(
        "DELETE FROM idempotency_record WHERE status IN ('COMPLETED', 'RELEASED') AND expires_at < ?"
            + " FETCH FIRST ? ROWS ONLY",
        utcNow(),
        batchSize);
  }

  @Override
  protected String tableSizeQuery() {
    return "SELECT DISK_SPACE_USED('IDEMPOTENCY_RECORD')";
  }
}
