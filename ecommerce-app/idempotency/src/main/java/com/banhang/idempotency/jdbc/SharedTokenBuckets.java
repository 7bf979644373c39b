package com.banhang.idempotency.jdbc;

import com.banhang.idempotency.IdempotencyStoreUnavailableException;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.distributed.jdbc.PrimaryKeyMapper;
import io.github.bucket4j.distributed.proxy.ProxyManager;
import io.github.bucket4j.postgresql.Bucket4jPostgreSQL;
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
 */
public final class SharedTokenBuckets {

  static final String TABLE = "idempotency_new_key_bucket";

  /** The id column's length in every database (V21). */
  static final int MAX_ID_LENGTH = 450;

  private final ProxyManager<String> buckets;

  private SharedTokenBuckets(ProxyManager<String> buckets) {
    this.buckets = buckets;
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
    String product;
    try (Connection connection = dataSource.getConnection()) {
      product = connection.getMetaData().getDatabaseProductName();
    } catch (SQLException e) {
      throw new IdempotencyStoreUnavailableException("cannot reach the shared token buckets", e);
    }
    if (product.startsWith("PostgreSQL")) {
      return new SharedTokenBuckets(
          Bucket4jPostgreSQL.selectForUpdateBasedBuilder(dataSource)
              .primaryKeyMapper(PrimaryKeyMapper.STRING)
              .table(TABLE)
              .idColumn("id")
              .stateColumn("state")
              .requestTimeout(timeout)
              .build());
    }
    if (product.startsWith("H2")) {
      return new SharedTokenBuckets(
          new SelectForUpdateTokenBuckets(
              dataSource, SelectForUpdateTokenBuckets.Dialect.H2, timeout));
    }
    if (product.startsWith("Microsoft SQL Server")) {
      return new SharedTokenBuckets(
          new SelectForUpdateTokenBuckets(
              dataSource, SelectForUpdateTokenBuckets.Dialect.SQL_SERVER, timeout));
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

  private io.github.bucket4j.distributed.BucketProxy bucket(
      String name, long tokens, Duration period) {
    BucketConfiguration configuration =
        BucketConfiguration.builder()
            .addLimit(l -> l.capacity(tokens).refillGreedy(tokens, period))
            .build();
    return buckets.builder().build(id(name, tokens, period), () -> configuration);
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
