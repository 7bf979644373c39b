package com.banhang.idempotency.jdbc;

import com.banhang.idempotency.spi.IdempotencyStore.ClaimRequest;
import com.banhang.idempotency.spi.IdempotencyStore.ClaimResult;
import com.banhang.idempotency.spi.KeyBusyException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import javax.sql.DataSource;

/**
 * PostgreSQL: the claim is the function {@code idempotency_claim} (sql/postgresql), an {@code
 * INSERT ... ON CONFLICT DO NOTHING} followed by the takeover rules, in one statement's
 * transaction.
 */
public class PostgresIdempotencyStore extends JdbcIdempotencyStore {

  /** lock_timeout ran out. */
  private static final String LOCK_NOT_AVAILABLE = "55P03";

  public PostgresIdempotencyStore(DataSource dataSource) {
    super(dataSource);
  }

  @Override
  public ClaimResult claim(ClaimRequest request) {
    refuseCallersTransaction();
    // clock_timestamp() here is read after the function ran: the database's clock at the read.
    String sql =
        "SELECT won, "
            + COLUMNS
            + ", clock_timestamp() FROM idempotency_claim(?, ?, ?, ?, ?, ?, ?)";
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement = connection.prepareStatement(sql)) {
      requireAutoCommit(connection);
      bind(statement, claimParameters(request));
      try (ResultSet rs = statement.executeQuery()) {
        if (!rs.next()) {
          throw new SQLException("idempotency_claim returned no row");
        }
        return new ClaimResult(rs.getBoolean(1), readRecord(rs, 2, null));
      }
    } catch (SQLException e) {
      throw unavailable("cannot claim a key", e);
    }
  }

  /**
   * The function {@code idempotency_claim_in_transaction} (sql/postgresql V8): a transaction-scoped
   * advisory lock on the key, then a read of its row, in one round trip; nothing is written until
   * {@link #completeInTransaction}.
   */
  @Override
  public ClaimResult claimInTransaction(ClaimRequest request, Duration lockWait) {
    requireCallersTransaction();
    String sql =
        "SELECT won, "
            + COLUMNS
            + ", read_at FROM idempotency_claim_in_transaction(?, ?, ?, ?, ?, ?, ?, ?)";
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement = connection.prepareStatement(sql)) {
      bind(statement, claimParameters(request, Math.max(1, lockWait.toMillis())));
      try (ResultSet rs = statement.executeQuery()) {
        if (!rs.next()) {
          throw new SQLException("idempotency_claim_in_transaction returned no row");
        }
        return new ClaimResult(rs.getBoolean(1), readRecord(rs, 2, null));
      }
    } catch (SQLException e) {
      if (LOCK_NOT_AVAILABLE.equals(e.getSQLState())) {
        throw new KeyBusyException("the key stayed held longer than " + lockWait, e);
      }
      throw unavailable("cannot claim a key", e);
    }
  }

  @Override
  protected String purgeExpiredStatement() {
    return "DELETE FROM idempotency_record WHERE ctid IN (SELECT ctid FROM idempotency_record"
        + " WHERE status IN ('COMPLETED', 'RELEASED') AND expires_at < "
        + now()
        + " LIMIT ?)";
  }

  /** The start of the current statement: one "now" for the whole statement, unlike now(). */
  @Override
  protected String now() {
    return "statement_timestamp()";
  }

  @Override
  protected String plusMillis(String timestamp) {
    return "(" + timestamp + " + CAST(? AS bigint) * interval '1 millisecond')";
  }

  @Override
  protected String tableSizeQuery() {
    return "SELECT pg_total_relation_size('idempotency_record')";
  }
}
