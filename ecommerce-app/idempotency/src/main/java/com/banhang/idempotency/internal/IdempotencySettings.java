package com.banhang.idempotency.internal;

import com.banhang.idempotency.BodyKeyring;
import com.banhang.idempotency.IdempotencyStoreUnavailableException;
import com.banhang.idempotency.jdbc.JdbcIdempotencyStore;
import com.banhang.idempotency.jdbc.ResponseBodyCipher;
import com.banhang.idempotency.jdbc.SharedTokenBuckets;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Every knob of the library, read through MicroProfile Config, so each can be set in
 * microprofile-config.properties, a system property or an environment variable (IDEMPOTENCY_LEASE
 * for idempotency.lease). Defaults are listed in docs/idempotency.md.
 */
@ApplicationScoped
public class IdempotencySettings {

  @Inject Config config;

  /**
   * The server's transaction registry, injected once for the application; null where there is no
   * JTA. Kept here so that the request-scoped {@link RequestLifecycle} does not pay a resource
   * injection per request.
   */
  @Resource(lookup = "java:comp/TransactionSynchronizationRegistry")
  TransactionSynchronizationRegistry transactions;

  @Inject
  @ConfigProperty(name = "idempotency.datasource", defaultValue = "jdbc/idempotency")
  String dataSourceName;

  @Inject
  @ConfigProperty(name = "idempotency.lease", defaultValue = "PT30S")
  Duration lease;

  /**
   * Unset (the default): a keyed request without an authenticated caller is refused (401), since
   * keys are kept per caller. Only an application that authenticates nobody at all (one tenant)
   * sets a name here, which every unauthenticated caller then shares.
   */
  @Inject
  @ConfigProperty(name = "idempotency.unauthenticated-tenant")
  Optional<String> unauthenticatedTenant;

  @Inject
  @ConfigProperty(name = "idempotency.max-body-bytes", defaultValue = "65536")
  int maxBodyBytes;

  /** Deepest nesting of arrays and objects in an idempotent request's JSON body. */
  @Inject
  @ConfigProperty(name = "idempotency.max-json-depth", defaultValue = "32")
  int maxJsonDepth;

  @Inject
  @ConfigProperty(name = "idempotency.in-progress-wait", defaultValue = "PT0S")
  Duration inProgressWait;

  /**
   * Where a local operation claims its key: {@code in-transaction} (the default: inside the
   * operation's transaction, so a new key costs one commit and a concurrent duplicate waits for the
   * replay) or {@code before-transaction} (a claim committed on its own first, as remote operations
   * always do). docs/performance.md measures both.
   */
  @Inject
  @ConfigProperty(name = "idempotency.local-claim", defaultValue = "in-transaction")
  String localClaim;

  /**
   * Whether a local operation that claims inside its transaction first reads its key in the request
   * filter, as remote operations always do: a retry of a completed key is then answered before
   * JAX-RS binds the body and before any transaction opens, at the price of one more read for every
   * new key. docs/performance.md measures both.
   */
  @Inject
  @ConfigProperty(name = "idempotency.local-claim.read-first", defaultValue = "true")
  boolean localClaimReadFirst;

  /**
   * How long a claim inside the operation's transaction waits for another transaction that holds
   * the same key before it is answered 409 (PostgreSQL and SQL Server; on H2 the database URL's
   * LOCK_TIMEOUT bounds the wait).
   */
  @Inject
  @ConfigProperty(name = "idempotency.local-claim.lock-wait", defaultValue = "PT10S")
  Duration localClaimLockWait;

  /**
   * The longest any statement of the store other than a claim may run (a completion, a release, a
   * read of a key): one that waits behind another session's lock fails after it, so the request is
   * answered 503 and its transaction rolls back instead of holding its thread and locks.
   */
  @Inject
  @ConfigProperty(name = "idempotency.store.statement-timeout", defaultValue = "PT10S")
  Duration storeStatementTimeout;

  @Inject
  @ConfigProperty(name = "idempotency.retry-after-seconds", defaultValue = "1")
  int retryAfterSeconds;

  @Inject
  @ConfigProperty(name = "idempotency.stored-headers", defaultValue = "Location,Content-Type")
  List<String> storedHeaders;

  /** Rows deleted per purge statement, so that no statement holds locks for long. */
  @Inject
  @ConfigProperty(name = "idempotency.retention.batch-size", defaultValue = "1000")
  int purgeBatchSize;

  /** Upper bound of batches per purge run, so one run cannot go on for ever behind a flood. */
  @Inject
  @ConfigProperty(name = "idempotency.retention.max-batches", defaultValue = "100")
  int purgeMaxBatches;

  /**
   * Pause between two purge batches, so that a purge of a large backlog leaves the database and the
   * CPU to the requests running meanwhile (docs/benchmarks.md, retention under load).
   */
  @Inject
  @ConfigProperty(name = "idempotency.retention.batch-pause", defaultValue = "PT0.01S")
  Duration purgeBatchPause;

  /**
   * Where the key table is partitioned by expiry day (docs/scaling.md, "Retention by partition"):
   * how many days after today each retention run makes sure have their partition, so that rows land
   * in their day's partition and not in the default one. At least the longest TTL in days plus one;
   * a row beyond it lands in the default partition, which the batched purge keeps.
   */
  @Inject
  @ConfigProperty(name = "idempotency.retention.partition-days-ahead", defaultValue = "8")
  int partitionDaysAhead;

  /**
   * The longest a partition's DDL waits for its lock. The detach of an expired day holds the key
   * table exclusively for the time it takes, and claims queue behind it while it waits: a long
   * transaction on the table makes it give up after this, and the next run tries again.
   */
  @Inject
  @ConfigProperty(name = "idempotency.retention.partition-lock-wait", defaultValue = "PT0.5S")
  Duration partitionLockWait;

  public int partitionDaysAhead() {
    return Math.max(0, partitionDaysAhead);
  }

  public Duration partitionLockWait() {
    return partitionLockWait == null ? Duration.ofMillis(500) : partitionLockWait;
  }

  /**
   * Rows re-sealed per batch after a body key rotation: each batch is one short transaction that
   * locks at most this many rows, whose bodies are opened and sealed again in memory before it.
   */
  @Inject
  @ConfigProperty(name = "idempotency.reseal.batch-size", defaultValue = "500")
  int resealBatchSize;

  /** Upper bound of batches per re-seal run, so one run ends; the next one carries on. */
  @Inject
  @ConfigProperty(name = "idempotency.reseal.max-batches", defaultValue = "100")
  int resealMaxBatches;

  /**
   * The keyring of stored response bodies ({@link BodyKeyring}: {@code idempotency.body-keys},
   * {@code idempotency.body-key-id}, and the legacy {@code idempotency.body-encryption-key});
   * {@link ResponseBodyCipher#NONE} when no key is configured.
   *
   * @throws IllegalArgumentException when the keyring is configured wrongly
   */
  public ResponseBodyCipher bodyCipher() {
    return ResponseBodyCipher.of(BodyKeyring.of(config));
  }

  public int purgeBatchSize() {
    return purgeBatchSize;
  }

  public int purgeMaxBatches() {
    return purgeMaxBatches;
  }

  public int resealBatchSize() {
    return Math.max(1, resealBatchSize);
  }

  public int resealMaxBatches() {
    return Math.max(1, resealMaxBatches);
  }

  public Duration purgeBatchPause() {
    return purgeBatchPause == null ? Duration.ZERO : purgeBatchPause;
  }

  public String dataSourceName() {
    return dataSourceName;
  }

  /** The tenant of callers nobody authenticated, when the application opted in; else empty. */
  public Optional<String> unauthenticatedTenant() {
    return unauthenticatedTenant == null
        ? Optional.empty()
        : unauthenticatedTenant.map(String::strip).filter(t -> !t.isEmpty());
  }

  /** How long a winner owns a key before a retry of a local operation may take it over. */
  public Duration lease() {
    return lease;
  }

  public int maxBodyBytes() {
    return maxBodyBytes;
  }

  /** The limits applied to a request body before it is canonicalised. */
  public RequestFingerprint.Limits bodyLimits() {
    return new RequestFingerprint.Limits(maxJsonDepth, maxBodyBytes);
  }

  /**
   * Whether the rate limit of new keys is one for every server sharing the database (the default)
   * rather than one per server (docs/scaling.md, "The new-key limit of the cluster").
   */
  @Inject
  @ConfigProperty(name = "idempotency.new-keys.shared", defaultValue = "true")
  boolean newKeysShared;

  /**
   * The data source of the shared limit: the store's database, through connections that never join
   * the request's JTA transaction (Open Liberty: {@code transactional="false"}).
   */
  @Inject
  @ConfigProperty(
      name = "idempotency.new-keys.shared.datasource",
      defaultValue = "jdbc/idempotency-limits")
  String newKeysSharedDataSource;

  /** The longest one take from the shared limit may wait for its row and the database. */
  @Inject
  @ConfigProperty(name = "idempotency.new-keys.shared.timeout", defaultValue = "PT1S")
  Duration newKeysSharedTimeout;

  /** Made on first use; package-private so that tests can give their own. */
  volatile NewKeyLimits newKeyLimits;

  /** The rate limit of new keys, made on first use from the configuration. */
  NewKeyLimits newKeyLimits() {
    NewKeyLimits current = newKeyLimits;
    if (current == null) {
      synchronized (this) {
        if (newKeyLimits == null) {
          newKeyLimits =
              new NewKeyLimits(
                  name -> config.getOptionalValue(name, String.class),
                  newKeysShared ? this::sharedBuckets : null);
        }
        current = newKeyLimits;
      }
    }
    return current;
  }

  /**
   * The shared buckets over {@code idempotency.new-keys.shared.datasource}.
   *
   * @throws IdempotencyStoreUnavailableException when there is no such data source or it cannot be
   *     reached
   */
  private NewKeyLimits.SharedBuckets sharedBuckets() {
    DataSource dataSource;
    try {
      dataSource = (DataSource) new InitialContext().lookup(newKeysSharedDataSource);
    } catch (NamingException | ClassCastException e) {
      throw new IdempotencyStoreUnavailableException(
          "no data source " + newKeysSharedDataSource, e);
    }
    Duration timeout = newKeysSharedTimeout == null ? Duration.ofSeconds(1) : newKeysSharedTimeout;
    return NewKeyLimits.SharedBuckets.over(SharedTokenBuckets.forDataSource(dataSource, timeout));
  }

  /**
   * Whether a local operation claims its key inside its own transaction.
   *
   * @throws IllegalArgumentException for a value other than the two documented ones
   */
  public boolean localClaimInTransaction() {
    return claimsInTransaction(localClaim == null ? "before-transaction" : localClaim);
  }

  /**
   * {@code in-transaction} is true, {@code before-transaction} false.
   *
   * @throws IllegalArgumentException for any other value of {@code idempotency.local-claim}
   */
  static boolean claimsInTransaction(String localClaim) {
    String value = localClaim.strip();
    return switch (value) {
      case "in-transaction" -> true;
      case "before-transaction" -> false;
      default ->
          throw new IllegalArgumentException(
              "idempotency.local-claim is '"
                  + value
                  + "'; use in-transaction or before-transaction");
    };
  }

  /** Whether a key claimed inside the transaction is first read in the request filter. */
  public boolean localClaimReadFirst() {
    return localClaimReadFirst;
  }

  /** The bound of a claim's wait for another transaction holding the key (in-transaction). */
  public Duration storeStatementTimeout() {
    return storeStatementTimeout == null
        ? Duration.ofSeconds(JdbcIdempotencyStore.DEFAULT_STATEMENT_TIMEOUT_SECONDS)
        : storeStatementTimeout;
  }

  public Duration localClaimLockWait() {
    return localClaimLockWait == null ? Duration.ofSeconds(10) : localClaimLockWait;
  }

  /** How long a duplicate waits for a running first attempt before it is answered 409. */
  public Duration inProgressWait() {
    return inProgressWait;
  }

  public int retryAfterSeconds() {
    return retryAfterSeconds;
  }

  /**
   * The allowlist of response headers kept for replay. Headers of the fixed denylist of {@link
   * com.banhang.idempotency.StoredResponse} (cookies, credentials) are never stored whatever this
   * list says.
   */
  public List<String> storedHeaders() {
    return storedHeaders;
  }

  /** The operation's TTL: {@code idempotency.operations.<operation>.ttl}, else the annotation's. */
  public Duration ttl(String operation, String annotated) {
    // Read once per operation: looking up a property that is not set walks every config source
    // (environment variables under three spellings among them), which cost a keyed create more
    // than its fingerprint (docs/performance.md, "Where a key's cost goes").
    return ttls.computeIfAbsent(
        operation + "\n" + annotated,
        scope ->
            config
                .getOptionalValue("idempotency.operations." + operation + ".ttl", Duration.class)
                .orElseGet(() -> Duration.parse(annotated)));
  }

  private final Map<String, Duration> ttls = new ConcurrentHashMap<>();

  /**
   * The TTL of every operation configured as {@code idempotency.operations.<operation>.ttl}, by
   * operation name (an operation that only has its annotation's TTL is not listed).
   */
  public java.util.Map<String, Duration> configuredTtls() {
    java.util.Map<String, Duration> ttls = new java.util.TreeMap<>();
    String prefix = "idempotency.operations.";
    for (String name : config.getPropertyNames()) {
      if (name.startsWith(prefix) && name.endsWith(".ttl")) {
        String operation = name.substring(prefix.length(), name.length() - ".ttl".length());
        config.getOptionalValue(name, Duration.class).ifPresent(ttl -> ttls.put(operation, ttl));
      }
    }
    return ttls;
  }

  TransactionSynchronizationRegistry transactions() {
    return transactions;
  }
}
