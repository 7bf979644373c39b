package com.banhang.idempotency.jdbc;

import com.banhang.idempotency.ClaimedKey;
import com.banhang.idempotency.IdempotencyRecord;
import com.banhang.idempotency.IdempotencyStoreUnavailableException;
import com.banhang.idempotency.PartitionRetention;
import com.banhang.idempotency.StoredResponse;
import com.banhang.idempotency.spi.IdempotencyStore;
import com.banhang.idempotency.spi.IdempotencyStore.ClaimRequest;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;

/**
 * The statements every database shares on a request's path; subclasses supply the claim routine and
 * the few clauses whose syntax differs. Those clauses are also the hooks of the store's {@link
 * #administration()}, which writes the statements outside a request once for every database: what
 * sets one database apart stays in its subclass alone. Connections come from the data source per
 * call, so inside a JTA transaction they are the transaction's connection and outside one they
 * commit on their own.
 *
 * <p>No statement binds a time taken from this server's clock: "now" is always the database's
 * ({@link #now()}), and ages are durations subtracted from it in SQL ({@link #plusMillis}).
 */
public abstract class JdbcIdempotencyStore implements IdempotencyStore {

  /** Columns in the order {@link #readRecord} expects them. */
  protected static final String COLUMNS =
      "tenant_id, operation, idempotency_key, request_hash, status, outcome, attempt, locked_until,"
          + " created_at, completed_at, expires_at, response_code, response_headers, response_body";

  /**
   * {@link #COLUMNS} and the last check, for reads. The claim routines return {@link #COLUMNS}
   * only: a row they return was just claimed, so no check applies to it yet.
   */
  private static final String RECORD_COLUMNS =
      COLUMNS + ", last_check, last_check_detail, last_checked_at";

  protected final DataSource dataSource;
  private ResponseBodyCipher cipher = ResponseBodyCipher.NONE;
  private int statementTimeoutSeconds = DEFAULT_STATEMENT_TIMEOUT_SECONDS;
  private final JdbcIdempotencyStoreAdministration administration =
      new JdbcIdempotencyStoreAdministration(this);

  /** {@link #boundingStatementsBy}'s default: no write of a key waits longer than this. */
  public static final int DEFAULT_STATEMENT_TIMEOUT_SECONDS = 10;

  protected JdbcIdempotencyStore(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /**
   * Encrypts the bodies this store writes from now on, and opens what it reads, with {@code
   * cipher}'s keyring. A body read is opened only when its {@link StoredResponse#body()} is asked
   * for.
   */
  public JdbcIdempotencyStore encryptingBodiesWith(ResponseBodyCipher cipher) {
    this.cipher = cipher;
    return this;
  }

  /** The cipher of the bodies this store writes and reads, for its administration's re-seal. */
  ResponseBodyCipher cipher() {
    return cipher;
  }

  /**
   * Bounds every statement of this store other than the claim routines (which carry their own lock
   * wait) by {@code timeout}, rounded up to whole seconds: a completion, a release or a read that
   * waits behind another session's lock fails after it (the request then answers 503, and its
   * transaction rolls back) instead of holding the request thread and its locks for ever.
   */
  public JdbcIdempotencyStore boundingStatementsBy(Duration timeout) {
    long seconds = (timeout.toMillis() + 999) / 1000;
    this.statementTimeoutSeconds = (int) Math.max(1, Math.min(Integer.MAX_VALUE, seconds));
    return this;
  }

  /**
   * The keys of this store outside any request (reconciliation, retention, consoles), over the same
   * data source, with the same cipher and statement bound, in this database's dialect.
   */
  public JdbcIdempotencyStoreAdministration administration() {
    return administration;
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
    return executeUpdate(
            "UPDATE idempotency_record SET status = 'COMPLETED', outcome = NULL, last_check = NULL,"
                + " last_check_detail = NULL, last_checked_at = NULL, response_code = ?,"
                + " response_headers = ?, response_body = ?, resource_ref = ?, completed_at = "
                + now()
                + ", locked_until = "
                + now()
                + whereOwned(),
            response.status(),
            response.headersAsText(),
            cipher.seal(response.body(), claim.tenant(), claim.operation(), claim.key()),
            response.location(),
            claim.tenant(),
            claim.operation(),
            claim.key(),
            claim.attempt())
        == 1;
  }

  /**
   * The one write of a key claimed inside the caller's transaction, for the stores whose {@link
   * #claimInTransaction} writes nothing but locks the key (PostgreSQL, SQL Server). Attempt 1 is a
   * key that had no row: an INSERT, which the primary key refuses if a writer that takes no lock
   * added one meanwhile. A higher attempt replaces the row the claim found: an UPDATE fenced by
   * that row's attempt and by the takeover rules, checked again on the database's clock; a row
   * purged in between is inserted instead, and a row that changed meanwhile refuses the write.
   */
  @Override
  public boolean completeInTransaction(IdempotencyRecord claim, StoredResponse response) {
    byte[] body = cipher.seal(response.body(), claim.tenant(), claim.operation(), claim.key());
    if (claim.attempt() > 1) {
      int replaced =
          executeUpdate(
              "UPDATE idempotency_record SET request_hash = ?, status = 'COMPLETED',"
                  + " outcome = NULL, attempt = ?, locked_until = "
                  + now()
                  + ", created_at = ?, completed_at = "
                  + now()
                  + ", expires_at = ?, resource_ref = ?, response_code = ?,"
                  + " response_headers = ?, response_body = ?, last_check = NULL,"
                  + " last_check_detail = NULL, last_checked_at = NULL"
                  + " WHERE "
                  + keyMatch()
                  + " AND attempt = ? AND (status = 'RELEASED'"
                  + " OR (status = 'COMPLETED' AND expires_at <= "
                  + now()
                  + ") OR (status = 'PROCESSING' AND outcome IS NULL AND locked_until <= "
                  + now()
                  + "))",
              claim.fingerprint(),
              claim.attempt(),
              utc(claim.createdAt()),
              utc(claim.expiresAt()),
              response.location(),
              response.status(),
              response.headersAsText(),
              body,
              claim.tenant(),
              claim.operation(),
              claim.key(),
              claim.attempt() - 1);
      if (replaced == 1) {
        return true;
      }
      // The row changed since the claim read it (its old owner completed or released it), or it
      // was purged. Only a purged row is inserted again: where the key table is partitioned by
      // expiry (PostgreSQL, V22), the primary key holds the expiry and would take a second row of
      // the key with the takeover's expiry. No other writer inserts the key meanwhile: they all
      // take the key's lock, which the claim holds to the end of this transaction.
      if (find(claim.tenant(), claim.operation(), claim.key()).isPresent()) {
        return false;
      }
    }
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement =
            prepareBounded(
                connection,
                "INSERT INTO idempotency_record (tenant_id, operation, idempotency_key,"
                    + " request_hash, status, attempt, locked_until, created_at, completed_at,"
                    + " expires_at, resource_ref, response_code, response_headers, response_body)"
                    + " VALUES (?, ?, ?, ?, 'COMPLETED', ?, "
                    + now()
                    + ", ?, "
                    + now()
                    + ", ?, ?, ?, ?, ?)")) {
      bind(
          statement,
          claim.tenant(),
          claim.operation(),
          claim.key(),
          claim.fingerprint(),
          claim.attempt(),
          utc(claim.createdAt()),
          utc(claim.expiresAt()),
          response.location(),
          response.status(),
          response.headersAsText(),
          body);
      return statement.executeUpdate() == 1;
    } catch (SQLException e) {
      if (e.getSQLState() != null && e.getSQLState().startsWith("23")) {
        // Integrity violation: a row appeared that the claim did not see.
        return false;
      }
      throw unavailable("cannot write to the idempotency store", e);
    }
  }

  @Override
  public boolean markOutcomeUnknown(ClaimedKey claim, StoredResponse problemForRetries) {
    return executeUpdate(
            "UPDATE idempotency_record SET outcome = 'UNKNOWN', response_code = ?,"
                + " response_headers = ?, response_body = ?"
                + whereOwned(),
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
    return executeUpdate(
            "UPDATE idempotency_record SET status = 'RELEASED', outcome = NULL, last_check = NULL,"
                + " last_check_detail = NULL, last_checked_at = NULL,"
                + " response_code = NULL, response_headers = NULL, response_body = NULL,"
                + " resource_ref = NULL, completed_at = "
                + now()
                + ", locked_until = "
                + now()
                + whereOwned(),
            claim.tenant(),
            claim.operation(),
            claim.key(),
            claim.attempt())
        == 1;
  }

  @Override
  public Optional<IdempotencyRecord> find(String tenant, String operation, String key) {
    if (!printableAscii(operation) || !printableAscii(key)) {
      // No such key was ever stored (the library accepts printable ASCII only), and SQL Server's
      // typed parameter would turn other characters into '?' and could match another key.
      return Optional.empty();
    }
    List<IdempotencyRecord> found =
        query(
            "SELECT " + recordColumns() + " FROM idempotency_record WHERE " + keyMatch(),
            tenant,
            operation,
            key);
    return found.stream().findFirst();
  }

  /**
   * Table hints for the reader of processing rows (the administration's {@code findProcessing}),
   * with a leading space; none by default. SQL Server's store skips rows that others hold locked,
   * so that this reader never waits in a lock cycle with a claim or a completion.
   */
  protected String processingReaderHints() {
    return "";
  }

  static boolean printableAscii(String text) {
    return text.chars().allMatch(c -> c >= 0x21 && c <= 0x7E);
  }

  /** The row of one key: tenant, operation and key, in that order of parameters. */
  protected String keyMatch() {
    return "tenant_id = ? AND operation = "
        + asciiParameter(100)
        + " AND idempotency_key = "
        + asciiParameter(255);
  }

  String whereOwned() {
    return " WHERE " + keyMatch() + " AND attempt = ? AND status = 'PROCESSING'";
  }

  /**
   * The placeholder of a value compared with an ASCII column of at most {@code columnLength}
   * characters (the operation, the key): a plain {@code ?} by default. SQL Server's store types it,
   * since its driver sends strings as nvarchar, which would convert the varchar column instead.
   */
  protected String asciiParameter(int columnLength) {
    return "?";
  }

  /**
   * A claim that commits on its own ({@link #claim}) is refused inside a caller's JTA transaction:
   * made on the transaction's connection, it would commit or roll back with the caller, and stay
   * invisible to duplicates until then. {@link #requireAutoCommit} cannot see this on Open Liberty,
   * whose connection handle answers {@code getAutoCommit() == true} inside a global transaction
   * (seen in it-arquillian; docs/sqlserver.md, "The claim refuses every caller's transaction"), so
   * the transaction manager is asked.
   */
  protected static void refuseCallersTransaction() {
    if (Boolean.TRUE.equals(jtaTransactionActive())) {
      throw new IdempotencyStoreUnavailableException(
          "a claim must run outside any transaction: it commits on its own, before the operation",
          null);
    }
  }

  /** The other way round: a claim in the operation's transaction ({@link #claimInTransaction}). */
  protected static void requireCallersTransaction() {
    if (Boolean.FALSE.equals(jtaTransactionActive())) {
      throw new IdempotencyStoreUnavailableException(
          "a claim in the operation's transaction needs that transaction: none is active", null);
    }
  }

  /** Found once: a JNDI lookup on every claim cost more CPU than the check it serves. */
  private static volatile TransactionSynchronizationRegistry transactionRegistry;

  /** Whether the calling thread runs in a JTA transaction; null where there is no JTA. */
  private static Boolean jtaTransactionActive() {
    TransactionSynchronizationRegistry transactions = transactionRegistry;
    if (transactions == null) {
      try {
        // Not kept when the lookup fails: a thread without the application's naming context (or a
        // unit test) must not switch the check off for the threads that have one.
        transactions =
            (TransactionSynchronizationRegistry)
                new InitialContext().lookup("java:comp/TransactionSynchronizationRegistry");
        transactionRegistry = transactions;
      } catch (NamingException | ClassCastException | NoClassDefFoundError e) {
        return null;
      }
    }
    return transactions.getTransactionKey() != null;
  }

  /**
   * A claim commits on its own, before the operation runs: a connection that belongs to a caller's
   * transaction (auto-commit off, as a plain JDBC transaction's connection is) is refused, since a
   * claim made on it would commit, or roll back, with the caller.
   */
  protected static void requireAutoCommit(Connection connection) throws SQLException {
    if (!connection.getAutoCommit()) {
      throw new SQLException(
          "a claim must run outside any transaction, on a connection in auto-commit mode", "25000");
    }
  }

  /**
   * The DELETE of one purge batch: finished rows ({@code COMPLETED}, {@code RELEASED}) whose expiry
   * is before {@link #now()}, never a processing row, at most as many as its one placeholder says.
   */
  protected abstract String purgeExpiredStatement();

  /** One batch of the purge ({@link JdbcIdempotencyStoreAdministration#purgeExpired}). */
  protected int purgeExpiredBatch(int batchSize) {
    return executeUpdate(purgeExpiredStatement(), batchSize);
  }

  /**
   * The retention's step by partition ({@link
   * JdbcIdempotencyStoreAdministration#retainByPartitions}); none where the store has no
   * partitioned table.
   */
  protected PartitionRetention retainByPartitions(int daysAhead, Duration lockWait) {
    return PartitionRetention.NOT_PARTITIONED;
  }

  /**
   * A query of one number: the bytes of the table and its indexes; null if the database has none.
   */
  protected abstract String tableSizeQuery();

  /**
   * The database's clock as an SQL expression (a timestamp with time zone), the one "now" of every
   * statement: constant within a statement, and never this server's clock.
   */
  protected abstract String now();

  /**
   * {@code timestamp} plus a number of milliseconds, as an SQL expression whose placeholders take
   * {@link #plusMillisParameters} (negative: minus).
   */
  protected abstract String plusMillis(String timestamp);

  /** The values of {@link #plusMillis}'s placeholders, in order. */
  protected List<Object> plusMillisParameters(long millis) {
    return List.of(millis);
  }

  /** The database's clock, read on {@code connection}. */
  protected Instant databaseNow(Connection connection) throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement("SELECT " + now());
        ResultSet rs = statement.executeQuery()) {
      rs.next();
      return instant(rs, 1);
    }
  }

  /** {@code record} as read at {@code readAt} by the database's clock. */
  protected static IdempotencyRecord withReadAt(IdempotencyRecord record, Instant readAt) {
    return record.withReadAt(readAt);
  }

  /** {@link #RECORD_COLUMNS} and the database's clock, as {@link #query} reads them. */
  String recordColumns() {
    return RECORD_COLUMNS + ", " + now();
  }

  long queryLong(String sql, Object... parameters) {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement = prepareBounded(connection, sql)) {
      bind(statement, parameters);
      try (ResultSet rs = statement.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    } catch (SQLException e) {
      throw unavailable("cannot read the idempotency store", e);
    }
  }

  /**
   * A statement bounded by {@link #boundingStatementsBy}: the driver cancels it when the time runs
   * out, whatever it waits for (a lock, the network).
   */
  protected PreparedStatement prepareBounded(Connection connection, String sql)
      throws SQLException {
    PreparedStatement statement = connection.prepareStatement(sql);
    statement.setQueryTimeout(statementTimeoutSeconds);
    return statement;
  }

  protected static OffsetDateTime utc(Instant instant) {
    return instant.atOffset(ZoneOffset.UTC);
  }

  static String truncate(String text, int max) {
    return text.length() <= max ? text : text.substring(0, max);
  }

  protected int executeUpdate(String sql, Object... parameters) {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement = prepareBounded(connection, sql)) {
      bind(statement, parameters);
      return statement.executeUpdate();
    } catch (SQLException e) {
      if (rowMovedByConcurrentUpdate(e)) {
        return 0;
      }
      throw unavailable("cannot write to the idempotency store", e);
    }
  }

  /**
   * Whether a write failed because the row it waited for was moved away by a concurrent UPDATE (on
   * a partitioned table, a takeover that changed the row's expiry moves it to another partition).
   * Every write that goes through {@link #executeUpdate} is fenced by the attempt or bounded by the
   * row's state, and a takeover raised the attempt: the fence would have refused the write, so it
   * counts as no row written rather than as an unavailable store. False by default.
   */
  protected boolean rowMovedByConcurrentUpdate(SQLException e) {
    return false;
  }

  List<IdempotencyRecord> query(String sql, Object... parameters) {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement = prepareBounded(connection, sql)) {
      bind(statement, parameters);
      List<IdempotencyRecord> records = new ArrayList<>();
      try (ResultSet rs = statement.executeQuery()) {
        while (rs.next()) {
          records.add(readRecord(rs, 1, true, null));
        }
      }
      return records;
    } catch (SQLException e) {
      throw unavailable("cannot read the idempotency store", e);
    }
  }

  /**
   * The claim routines' parameters, in the order every database's routine takes them: tenant,
   * operation, key, fingerprint, lease (ms), TTL (s), takeover allowed; then {@code more}.
   */
  protected static Object[] claimParameters(ClaimRequest request, Object... more) {
    List<Object> parameters =
        new ArrayList<>(
            List.of(
                request.tenant(),
                request.operation(),
                request.key(),
                request.fingerprint(),
                request.lease().toMillis(),
                request.ttl().toSeconds(),
                request.takeoverAllowed()));
    parameters.addAll(List.of(more));
    return parameters.toArray();
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

  /**
   * Reads the {@link #COLUMNS} starting at column {@code first}, then the database's clock when the
   * row was read from the next column, or {@code readAt} if it is not null.
   */
  protected IdempotencyRecord readRecord(ResultSet rs, int first, Instant readAt)
      throws SQLException {
    return readRecord(rs, first, false, readAt);
  }

  /**
   * Reads {@link #COLUMNS}, then the last check's three columns if {@code withCheck}, then the
   * database's clock from the next column unless {@code readAt} is given.
   */
  private IdempotencyRecord readRecord(ResultSet rs, int first, boolean withCheck, Instant readAt)
      throws SQLException {
    int i = first;
    String tenant = rs.getString(i++);
    String operation = rs.getString(i++);
    String key = rs.getString(i++);
    String fingerprint = rs.getString(i++);
    IdempotencyRecord.Status status = IdempotencyRecord.Status.valueOf(rs.getString(i++).trim());
    boolean outcomeUnknown = "UNKNOWN".equals(rs.getString(i++));
    int attempt = rs.getInt(i++);
    Instant lockedUntil = instant(rs, i++);
    Instant createdAt = instant(rs, i++);
    Instant completedAt = instant(rs, i++);
    Instant expiresAt = instant(rs, i++);
    int code = rs.getInt(i++);
    boolean hasResponse = !rs.wasNull();
    String headers = rs.getString(i++);
    byte[] rawBody = rs.getBytes(i++);
    String lastCheck = withCheck ? rs.getString(i++) : null;
    String lastCheckDetail = withCheck ? rs.getString(i++) : null;
    Instant lastCheckedAt = withCheck ? instant(rs, i++) : null;
    Instant seenAt = readAt != null ? readAt : instant(rs, i);
    StoredResponse response =
        hasResponse
            ? StoredResponse.opening(
                code,
                StoredResponse.headersFromText(headers),
                () -> cipher.open(rawBody, tenant, operation, key))
            : null;
    return new IdempotencyRecord(
        tenant,
        operation,
        key,
        fingerprint,
        status,
        outcomeUnknown,
        attempt,
        lockedUntil,
        createdAt,
        completedAt,
        expiresAt,
        response,
        lastCheck,
        lastCheckDetail,
        lastCheckedAt,
        seenAt);
  }

  static Instant instant(ResultSet rs, int column) throws SQLException {
    OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
    return value == null ? null : value.toInstant();
  }

  protected static IdempotencyStoreUnavailableException unavailable(String what, SQLException e) {
    return new IdempotencyStoreUnavailableException(what + ": " + e.getMessage(), e);
  }
}
