package com.banhang.idempotency.jdbc;

import com.banhang.idempotency.IdempotencyStoreUnavailableException;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.jdbc.PrimaryKeyMapper;
import io.github.bucket4j.distributed.proxy.ExpiredEntriesCleaner;
import io.github.bucket4j.distributed.proxy.ProxyManager;
import io.github.bucket4j.postgresql.Bucket4jPostgreSQL;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Token buckets that every server sharing one database shares: the rows of {@code
 * idempotency_new_key_bucket} (sql/postgresql's V21), each holding one Bucket4j bucket's state. A
 * token is taken inside one short transaction that locks the bucket's row ({@code SELECT ... FOR
 * UPDATE}), refills it for the time since it was last written, takes the token if there is one and
 * writes the row back, so servers taking tokens at once take them one after the other and together
 * never take more than the bucket holds (docs/scaling.md, "The new-key limit of the cluster").
 *
 * <p>On PostgreSQL this is Bucket4j's own PostgreSQL module; on H2 and SQL Server, which Bucket4j
 * has no module for, the same Bucket4j algorithm over the same table with this package's
 * statements. The data source must not enlist its connections in the caller's JTA transaction (Open
 * Liberty: {@code transactional="false"}): each take commits on its own, at once, whatever the
 * request's transaction does later, and holds the row only for that moment.
 *
 * <p>Each write also records when the bucket will be full again ({@code expires_at}, sql's V23),
 * and {@link #removeFull} deletes the rows past that time: a full bucket is what a missing row
 * starts as, so no answer changes, and the table keeps no row for a tenant, operation or limit no
 * longer in use.
 */
public final class SharedTokenBuckets {

  static final String TABLE = "idempotency_new_key_bucket";

  /** When the row's bucket is full again, in milliseconds since 1970-01-01 UTC (V23). */
  static final String EXPIRES_AT = "expires_at";

  /** The id column's length in every database (V21). */
  static final int MAX_ID_LENGTH = 450;

  /**
   * How long a row is kept after its bucket is full again: for the servers' clocks, since the
   * server that writes a row computes its time and another one may delete it. A bucket deleted
   * before it is full would give its tenant the missing tokens back.
   */
  static final Duration KEPT_AFTER_FULL = Duration.ofMinutes(1);

  private final ProxyManager<String> buckets;
  private final ExpiredEntriesCleaner cleaner;

  private <M extends ProxyManager<String> & ExpiredEntriesCleaner> SharedTokenBuckets(M buckets) {
    this.buckets = buckets;
    this.cleaner = buckets;
  }

  /**
   * The buckets of the database behind {@code dataSource}, whose dialect comes from the database
   * itself, as the store's does.
   *
   * @param timeout the longest one take may wait for the row and the database, rounded up to whole
   *     seconds
   * @throws IdempotencyStoreUnavailableException when the database cannot be reached or is not one
   *     of the three
   */
  public static SharedTokenBuckets forDataSource(DataSource dataSource, Duration timeout) {
    ExpirationAfterWriteStrategy expiry =
        ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(KEPT_AFTER_FULL);
    String product;
    try (Connection connection = dataSource.getConnection()) {
      product = connection.getMetaData().getDatabaseProductName();
    } catch (SQLException e) {
      throw new IdempotencyStoreUnavailableException("cannot reach the shared token buckets", e);
    }
    if (product.startsWith("PostgreSQL")) {
      return new SharedTokenBuckets(
          Bucket4jPostgreSQL.selectForUpdateBasedBuilder(autoCommitting(dataSource))
              .primaryKeyMapper(PrimaryKeyMapper.STRING)
              .table(TABLE)
              .idColumn("id")
              .stateColumn("state")
              .expiresAtColumn(EXPIRES_AT)
              .expirationAfterWrite(expiry)
              .requestTimeout(timeout)
              .build());
    }
    if (product.startsWith("H2")) {
      return new SharedTokenBuckets(
          new SelectForUpdateTokenBuckets(
              dataSource, SelectForUpdateTokenBuckets.Dialect.H2, timeout, expiry));
    }
    if (product.startsWith("Microsoft SQL Server")) {
      return new SharedTokenBuckets(
          new SelectForUpdateTokenBuckets(
              dataSource, SelectForUpdateTokenBuckets.Dialect.SQL_SERVER, timeout, expiry));
    }
    throw new IdempotencyStoreUnavailableException(
        "no shared token buckets for database " + product, null);
  }

  /**
   * Takes one token of bucket {@code name}, a bucket of {@code tokens} tokens refilled greedily at
   * {@code tokens} per {@code period}; a bucket taken for the first time starts full. A bucket is
   * one row per name and limit, so a changed limit starts a new, full bucket.
   *
   * @return empty when the token was taken, else how long until one is back
   * @throws IdempotencyStoreUnavailableException when the database did not answer in time
   */
  public Optional<Duration> tryTake(String name, long tokens, Duration period) {
    ConsumptionProbe probe;
    try {
      probe = bucket(name, tokens, period).tryConsumeAndReturnRemaining(1);
    } catch (RuntimeException e) {
      throw new IdempotencyStoreUnavailableException("the shared token bucket failed", e);
    }
    return probe.isConsumed()
        ? Optional.empty()
        : Optional.of(Duration.ofNanos(probe.getNanosToWaitForRefill()));
  }

  /**
   * Gives one token back to bucket {@code name} (never beyond its size).
   *
   * @throws IdempotencyStoreUnavailableException when the database did not answer in time
   */
  public void giveBack(String name, long tokens, Duration period) {
    try {
      bucket(name, tokens, period).addTokens(1);
    } catch (RuntimeException e) {
      throw new IdempotencyStoreUnavailableException("the shared token bucket failed", e);
    }
  }

  /**
   * Deletes up to {@code batchSize} rows whose bucket has been full again for {@link
   * #KEPT_AFTER_FULL}, skipping rows a take holds at that moment.
   *
   * @return how many rows went
   * @throws IdempotencyStoreUnavailableException when the database failed
   */
  public int removeFull(int batchSize) {
    try {
      return cleaner.removeExpired(batchSize);
    } catch (RuntimeException e) {
      throw new IdempotencyStoreUnavailableException("purging full token buckets failed", e);
    }
  }

  private io.github.bucket4j.distributed.BucketProxy bucket(
      String name, long tokens, Duration period) {
    BucketConfiguration configuration =
        BucketConfiguration.builder()
            .addLimit(l -> l.capacity(tokens).refillGreedy(tokens, period))
            .build();
    return buckets.builder().build(id(name, tokens, period), () -> configuration);
  }

  /**
   * {@code dataSource}, each of whose connections starts in auto-commit: Bucket4j's PostgreSQL
   * module turns it off for a take and never back on, and deletes expired rows on whatever
   * connection the pool hands out next, without a commit of its own. Open Liberty's pool resets the
   * mode (NewKeyBucketRetentionIT passes without this); a pool that did not would leave that
   * deletion uncommitted, to be rolled back when the connection is closed.
   */
  private static DataSource autoCommitting(DataSource dataSource) {
    return (DataSource)
        Proxy.newProxyInstance(
            SharedTokenBuckets.class.getClassLoader(),
            new Class<?>[] {DataSource.class},
            (proxy, method, args) -> {
              Object result;
              try {
                result = method.invoke(dataSource, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
              if (result instanceof Connection connection) {
                connection.setAutoCommit(true);
              }
              return result;
            });
  }

  /** The row's id: the name and the limit, or their SHA-256 when longer than the column. */
  static String id(String name, long tokens, Duration period) {
    String id = name + "\n" + tokens + "/" + period;
    if (id.length() <= MAX_ID_LENGTH) {
      return id;
    }
    try {
      byte[] hash =
          MessageDigest.getInstance("SHA-256").digest(id.getBytes(StandardCharsets.UTF_8));
      return "sha256:" + HexFormat.of().formatHex(hash);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }
}
