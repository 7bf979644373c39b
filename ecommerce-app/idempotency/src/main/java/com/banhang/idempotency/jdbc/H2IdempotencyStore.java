package com.banhang.idempotency.jdbc;

import com.banhang.idempotency.IdempotencyRecord;
import com.banhang.idempotency.StoredResponse;
import com.banhang.idempotency.spi.IdempotencyStore.ClaimRequest;
import com.banhang.idempotency.spi.IdempotencyStore.ClaimResult;
import com.banhang.idempotency.spi.KeyBusyException;
import java.sql.SQLException;
import java.time.Duration;
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

  /** "Timeout trying to lock table": the wait for another transaction's row ran out. */
  private static final int LOCK_TIMEOUT = 50200;

  private static final int MAX_ROUNDS = 10;

  /**
   * The database's clock; H2 keeps one value of it per statement (and per transaction, inside one),
   * so every use in a statement sees the same instant.
   */
  private static final String NOW = "CURRENT_TIMESTAMP";

  public H2IdempotencyStore(DataSource dataSource) {
    super(dataSource);
  }

  @Override
  public ClaimResult claim(ClaimRequest request) {
    return claim(request, false);
  }

  /**
   * H2 has no lock on a key that has no row, so the claim inside the caller's transaction writes
   * the processing row there at once: a concurrent insert of the same key waits on that uncommitted
   * row (up to the database's LOCK_TIMEOUT, which is the wait here: {@code lockWait} is not used)
   * and then fails on the primary key once the owner commits, or succeeds after a rollback. The
   * completion is the usual fenced UPDATE of that row.
   */
  @Override
  public ClaimResult claimInTransaction(ClaimRequest request, Duration lockWait) {
    return claim(request, true);
  }

  @Override
  public boolean completeInTransaction(IdempotencyRecord claim, StoredResponse response) {
    return complete(claim.claimedKey(), response);
  }

  private ClaimResult claim(ClaimRequest request, boolean inTransaction) {
    if (inTransaction) {
      requireCallersTransaction();
    } else {
      refuseCallersTransaction();
    }
    // A round is lost only when the row vanished (released, purged) between our insert and read.
    for (int round = 0; round < MAX_ROUNDS; round++) {
      if (insertNew(request, inTransaction)) {
        return new ClaimResult(true, read(request));
      }
      Optional<IdempotencyRecord> existing =
          find(request.tenant(), request.operation(), request.key());
      if (existing.isEmpty()) {
        continue;
      }
      if (takeOver(existing.get(), request, inTransaction)) {
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

  private boolean insertNew(ClaimRequest request, boolean inTransaction) {
    try {
      executeUpdateOrThrow(
          inTransaction,
          "INSERT INTO idempotency_record (tenant_id, operation, idempotency_key, request_hash,"
              + " status, attempt, locked_until, created_at, expires_at)"
              + " VALUES (?, ?, ?, ?, 'PROCESSING', 1, "
              + plusMillis(NOW)
              + ", "
              + NOW
              + ", "
              + plusMillis(NOW)
              + ")",
          request.tenant(),
          request.operation(),
          request.key(),
          request.fingerprint(),
          request.lease().toMillis(),
          request.ttl().toMillis());
      return true;
    } catch (SQLException e) {
      if (DUPLICATE_KEY.equals(e.getSQLState()) || e.getErrorCode() == CONCURRENT_UPDATE) {
        return false;
      }
      throw busyOrUnavailable("cannot claim a key", e, inTransaction);
    }
  }

  /**
   * The takeover rules every claim routine shares (see sql/postgresql for the reference), as a
   * compare-and-set on the attempt number read, decided on the database's clock.
   */
  private boolean takeOver(IdempotencyRecord record, ClaimRequest request, boolean inTransaction) {
    try {
      return executeUpdateOrThrow(
              inTransaction,
              "UPDATE idempotency_record SET request_hash = ?, status = 'PROCESSING',"
                  + " outcome = NULL, attempt = attempt + 1, locked_until = "
                  + plusMillis(NOW)
                  + ", created_at = "
                  + NOW
                  + ", completed_at = NULL, expires_at = "
                  + plusMillis(NOW)
                  + ", resource_ref = NULL,"
                  + " response_code = NULL, response_headers = NULL, response_body = NULL"
                  + " WHERE tenant_id = ? AND operation = ? AND idempotency_key = ?"
                  + " AND attempt = ? AND (status = 'RELEASED'"
                  + " OR (status = 'COMPLETED' AND expires_at <= "
                  + NOW
                  + ")"
                  + " OR (? AND status = 'PROCESSING' AND outcome IS NULL AND locked_until <= "
                  + NOW
                  + " AND (request_hash = ? OR expires_at <= "
                  + NOW
                  + ")))",
              request.fingerprint(),
              request.lease().toMillis(),
              request.ttl().toMillis(),
              request.tenant(),
              request.operation(),
              request.key(),
              record.attempt(),
              request.takeoverAllowed(),
              request.fingerprint())
          == 1;
    } catch (SQLException e) {
      if (e.getErrorCode() == CONCURRENT_UPDATE) {
        return false;
      }
      throw busyOrUnavailable("cannot take over a key", e, inTransaction);
    }
  }

  /**
   * Inside the caller's transaction, a lock wait that ran out is a busy key; outside one, and any
   * other failure, an unavailable store (a claim committed on its own answers 503 then, as before).
   */
  private static RuntimeException busyOrUnavailable(
      String what, SQLException e, boolean inTransaction) {
    if (inTransaction && e.getErrorCode() == LOCK_TIMEOUT) {
      return new KeyBusyException("the key stayed held longer than the lock timeout", e);
    }
    return unavailable(what, e);
  }

  /**
   * {@code inTransaction}: the statement runs in the caller's transaction; otherwise it must commit
   * on its own.
   */
  private int executeUpdateOrThrow(boolean inTransaction, String sql, Object... parameters)
      throws SQLException {
    try (var connection = dataSource.getConnection();
        var statement = connection.prepareStatement(sql)) {
      if (!inTransaction) {
        requireAutoCommit(connection);
      }
      bind(statement, parameters);
      return statement.executeUpdate();
    }
  }

  @Override
  protected String purgeExpiredStatement() {
    return "DELETE FROM idempotency_record WHERE status IN ('COMPLETED', 'RELEASED')"
        + " AND expires_at < "
        + NOW
        + " FETCH FIRST ? ROWS ONLY";
  }

  @Override
  protected String now() {
    return NOW;
  }

  @Override
  protected String plusMillis(String timestamp) {
    return "DATEADD(MILLISECOND, CAST(? AS BIGINT), " + timestamp + ")";
  }

  @Override
  protected String tableSizeQuery() {
    return "SELECT DISK_SPACE_USED('IDEMPOTENCY_RECORD')";
  }
}
