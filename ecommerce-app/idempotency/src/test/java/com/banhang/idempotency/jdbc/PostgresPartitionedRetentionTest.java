package com.banhang.idempotency.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.banhang.idempotency.ClaimedKey;
import com.banhang.idempotency.IdempotencyRecord;
import com.banhang.idempotency.PartitionRetention;
import com.banhang.idempotency.StoredResponse;
import com.banhang.idempotency.spi.IdempotencyStore.ClaimRequest;
import com.banhang.idempotency.spi.IdempotencyStore.ClaimResult;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Retention by partition on a real PostgreSQL (docs/scaling.md, "Retention by partition"): the key
 * table of V22, partitioned by expiry day, at the smallest size that shows each rule: one key
 * claimed from many threads with expiries on different days still makes one row and one winner; a
 * dropped day takes its finished rows and gives its processing rows back, still fenced as before;
 * days not over are untouched; several nodes maintain the partitions at once; the batched purge of
 * the default partition never takes a row of another partition; an existing table is converted in
 * place; and a table that is not partitioned keeps the batched purge.
 */
class PostgresPartitionedRetentionTest {

  private static final String TENANT = "alice";
  private static final String OPERATION = "orders.create";
  private static final String HASH = "a".repeat(64);
  private static final Duration LOCK_WAIT = Duration.ofSeconds(5);

  private static EmbeddedPostgres postgres;
  private static DataSource dataSource;
  private PostgresIdempotencyStore store;

  @BeforeAll
  static void startPostgres() throws IOException {
    postgres = EmbeddedPostgres.builder().start();
    dataSource = postgres.getPostgresDatabase();
    JdbcIdempotencyStoreContract.migrate(dataSource, "postgresql");
  }

  @AfterAll
  static void stopPostgres() throws IOException {
    if (postgres != null) {
      postgres.close();
    }
  }

  /** An empty key table with no day partition: each test makes the days it needs. */
  @BeforeEach
  void emptyTable() throws SQLException {
    execute("TRUNCATE idempotency_record");
    for (String partition :
        strings(
            dataSource,
            "SELECT partition_name FROM idempotency_partitions() WHERE NOT is_default")) {
      execute("DROP TABLE " + partition);
    }
    store = (PostgresIdempotencyStore) JdbcIdempotencyStore.forDataSource(dataSource);
  }

  // ------------------------------------------------------------------ one key, one row

  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void claim_manyThreadsOneKeyExpiriesOnDifferentDays_oneRowAndOneWinner() throws Exception {
    store.retainByPartitions(4, LOCK_WAIT);
    int threads = 12;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      for (int round = 0; round < 25; round++) {
        String key = "race-" + round + "-" + UUID.randomUUID();
        CountDownLatch start = new CountDownLatch(1);
        List<Future<ClaimResult>> claims = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          // TTLs from one hour to four days: each thread's row would land in another partition.
          Duration ttl = Duration.ofHours(1).plusDays(t % 4);
          Callable<ClaimResult> claim =
              () -> {
                start.await();
                return store.claim(
                    new ClaimRequest(
                        TENANT, OPERATION, key, HASH, Duration.ofMinutes(10), ttl, true));
              };
          claims.add(pool.submit(claim));
        }
        start.countDown();
        int winners = 0;
        for (Future<ClaimResult> claim : claims) {
          winners += claim.get().won() ? 1 : 0;
        }
        assertThat(winners).as("winners of key %s", key).isEqualTo(1);
        assertThat(rowsOf(key)).as("rows of key %s", key).isEqualTo(1);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void claim_takeoverThatMovesTheRowToAnotherDay_raisesTheAttemptAndFencesTheOldOwner()
      throws Exception {
    store.retainByPartitions(4, LOCK_WAIT);
    String key = newKey();
    ClaimedKey first =
        store
            .claim(
                new ClaimRequest(
                    TENANT, OPERATION, key, HASH, Duration.ofMillis(1), Duration.ofHours(1), true))
            .record()
            .claimedKey();
    String firstPartition = partitionOf(key);
    Thread.sleep(20);

    ClaimResult takeover =
        store.claim(
            new ClaimRequest(
                TENANT, OPERATION, key, HASH, Duration.ofMinutes(10), Duration.ofDays(3), true));

    assertThat(takeover.won()).isTrue();
    assertThat(takeover.record().attempt()).isEqualTo(2);
    assertThat(partitionOf(key)).as("moved to its new day").isNotEqualTo(firstPartition);
    assertThat(store.complete(first, response("old"))).as("the old owner is fenced").isFalse();
    assertThat(store.complete(takeover.record().claimedKey(), response("new"))).isTrue();
    assertThat(rowsOf(key)).isEqualTo(1);
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void complete_ofAnOldOwnerWhileATakeoverMovesTheRow_answersNotWrittenInsteadOfFailing()
      throws Exception {
    store.retainByPartitions(4, LOCK_WAIT);
    String key = newKey();
    ClaimedKey old =
        store
            .claim(
                new ClaimRequest(
                    TENANT,
                    OPERATION,
                    key,
                    HASH,
                    Duration.ofMinutes(10),
                    Duration.ofHours(1),
                    true))
            .record()
            .claimedKey();
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try (Connection takeover = dataSource.getConnection()) {
      takeover.setAutoCommit(false);
      // A takeover as idempotency_claim writes it: a new attempt and a new expiry, another day.
      try (PreparedStatement update =
          takeover.prepareStatement(
              "UPDATE idempotency_record SET attempt = attempt + 1,"
                  + " expires_at = expires_at + interval '2 days' WHERE idempotency_key = ?")) {
        update.setString(1, key);
        assertThat(update.executeUpdate()).isEqualTo(1);
      }
      Future<Boolean> completion = pool.submit(() -> store.complete(old, response("old")));
      Thread.sleep(300);
      assertThat(completion).as("the completion waits for the takeover's row lock").isNotDone();
      takeover.commit();
      assertThat(completion.get(30, TimeUnit.SECONDS)).isFalse();
    } finally {
      pool.shutdownNow();
    }
  }

  // ------------------------------------------------------------------ dropping an expired day

  @Test
  void retain_expiredDay_dropsItsFinishedRows_givesBackItsProcessingRows_leavesOtherDays()
      throws Exception {
    store.retainByPartitions(2, LOCK_WAIT);
    execute(
        "SELECT idempotency_partition_create(CAST(now() AT TIME ZONE 'UTC' AS date) - 3, 1000)");
    String completed = insert("COMPLETED", null, dayStart(-3) + " + interval '1 hour'");
    String released = insert("RELEASED", null, dayStart(-3) + " + interval '2 hours'");
    String processing = insert("PROCESSING", null, dayStart(-3) + " + interval '3 hours'");
    String unknown = insert("PROCESSING", "UNKNOWN", dayStart(-3) + " + interval '4 hours'");
    String tomorrow = insert("COMPLETED", null, "now() + interval '1 day'");
    String expiredDay = partitionOf(completed);
    assertThat(partitionOf(processing)).isEqualTo(expiredDay);
    String tomorrowDay = partitionOf(tomorrow);
    IdempotencyRecord processingBefore = store.find(TENANT, OPERATION, processing).orElseThrow();

    PartitionRetention run = store.retainByPartitions(2, LOCK_WAIT);

    assertThat(run.partitioned()).isTrue();
    assertThat(run.partitionsDropped()).isEqualTo(1);
    assertThat(run.rowsDropped()).isEqualTo(2);
    assertThat(run.processingKept()).isEqualTo(2);
    assertThat(run.skipped()).isEmpty();
    assertThat(partitions()).doesNotContain(expiredDay).contains(tomorrowDay);
    assertThat(store.find(TENANT, OPERATION, completed)).isEmpty();
    assertThat(store.find(TENANT, OPERATION, released)).isEmpty();
    assertThat(store.find(TENANT, OPERATION, tomorrow)).isPresent();
    assertThat(partitionOf(processing)).isEqualTo("idempotency_record_default");
    IdempotencyRecord processingAfter = store.find(TENANT, OPERATION, processing).orElseThrow();
    assertThat(processingAfter.attempt()).isEqualTo(processingBefore.attempt());
    assertThat(processingAfter.fingerprint()).isEqualTo(processingBefore.fingerprint());

    // Still claimed and fenced as before: the outcome-unknown key is never taken over, the
    // abandoned one is taken over with a higher attempt, and its old owner cannot write.
    assertThat(claim(unknown).won()).isFalse();
    ClaimResult takeover = claim(processing);
    assertThat(takeover.won()).isTrue();
    assertThat(takeover.record().attempt()).isEqualTo(processingBefore.attempt() + 1);
    assertThat(store.complete(processingBefore.claimedKey(), response("late"))).isFalse();
    assertThat(rowsOf(processing)).isEqualTo(1);
  }

  @Test
  void retain_processingRowGivenBack_isPurgedNeverButTheDefaultsFinishedRowsAre() throws Exception {
    store.retainByPartitions(1, LOCK_WAIT);
    // Days without a partition (long ago) land in the default partition.
    String finished = insert("COMPLETED", null, "now() - interval '20 days'");
    String processing = insert("PROCESSING", null, "now() - interval '20 days'");
    assertThat(partitionOf(finished)).isEqualTo("idempotency_record_default");

    assertThat(store.administration().purgeExpired(100)).isEqualTo(1);

    assertThat(store.find(TENANT, OPERATION, finished)).isEmpty();
    assertThat(store.find(TENANT, OPERATION, processing)).isPresent();
  }

  @Test
  void purge_partitioned_neverTakesARowOfAnotherPartitionThatHasTheSameCtid() throws Exception {
    store.retainByPartitions(2, LOCK_WAIT);
    // The first row of each of two empty partitions: both at ctid (0,1).
    String expired = insert("COMPLETED", null, "now() - interval '20 days'");
    String processing = insert("PROCESSING", null, "now() + interval '1 day'");
    assertThat(ctidOf(expired)).isEqualTo(ctidOf(processing)).isEqualTo("(0,1)");

    assertThat(store.administration().purgeExpired(100)).isEqualTo(1);

    assertThat(store.find(TENANT, OPERATION, expired)).isEmpty();
    assertThat(store.find(TENANT, OPERATION, processing)).isPresent();
  }

  @Test
  void purge_partitioned_leavesTheExpiredRowsOfADayPartitionToItsDrop() throws Exception {
    store.retainByPartitions(2, LOCK_WAIT);
    // Expired since midnight, in today's partition, whose range has not ended: the batched purge
    // would delete it row by row; the day is dropped whole once it is over instead.
    String key = insert("COMPLETED", null, dayStart(0));
    assertThat(partitionOf(key)).isEqualTo("idempotency_record_p" + day(0));

    assertThat(store.administration().purgeExpired(100)).isZero();
    assertThat(store.find(TENANT, OPERATION, key)).isPresent();
  }

  // ------------------------------------------------------------------ days ahead

  @Test
  void migration_freshInstallation_hasTodayAndTheNextEightDays_soTheFirstKeysLandInTheirDay()
      throws Exception {
    DataSource fresh = freshDatabase();
    migrate(fresh, null);

    List<String> days =
        strings(fresh, "SELECT partition_name FROM idempotency_partitions() WHERE NOT is_default");
    assertThat(days)
        .contains("idempotency_record_p" + day(0), "idempotency_record_p" + day(8))
        .doesNotContain("idempotency_record_p" + day(9))
        .hasSize(9);
    PostgresIdempotencyStore freshStore =
        (PostgresIdempotencyStore) JdbcIdempotencyStore.forDataSource(fresh);
    assertThat(freshStore.retainByPartitions(8, LOCK_WAIT).partitionsCreated())
        .as("the first retention run finds every day made")
        .isZero();
  }

  @Test
  void retain_createsTheDaysAheadOnce_andAgainCreatesNothing() throws Exception {
    PartitionRetention first = store.retainByPartitions(3, LOCK_WAIT);
    PartitionRetention second = store.retainByPartitions(3, LOCK_WAIT);

    assertThat(first.partitionsCreated()).isEqualTo(4);
    assertThat(second.partitionsCreated()).isZero();
    assertThat(partitions())
        .contains(
            "idempotency_record_p" + day(0),
            "idempotency_record_p" + day(1),
            "idempotency_record_p" + day(3))
        .doesNotContain("idempotency_record_p" + day(4));
  }

  @Test
  void retain_defaultHoldsRowsOfADay_leavesThatDayToTheDefaultAndCreatesTheOthers()
      throws Exception {
    String early = insert("COMPLETED", null, "now() + interval '2 days'");
    assertThat(partitionOf(early)).isEqualTo("idempotency_record_default");

    PartitionRetention run = store.retainByPartitions(3, LOCK_WAIT);

    assertThat(run.partitionsCreated()).isEqualTo(3);
    assertThat(run.skipped()).singleElement().asString().contains("day +2");
    assertThat(partitionOf(early)).isEqualTo("idempotency_record_default");
    assertThat(store.find(TENANT, OPERATION, early)).isPresent();
  }

  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void retain_onSeveralNodesAtOnce_eachDayCreatedAndDroppedOnce_noRunFails() throws Exception {
    execute(
        "SELECT idempotency_partition_create(CAST(now() AT TIME ZONE 'UTC' AS date) - 2, 1000)");
    insert("COMPLETED", null, dayStart(-2) + " + interval '1 hour'");
    int nodes = 4;
    ExecutorService pool = Executors.newFixedThreadPool(nodes);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<PartitionRetention>> runs = new ArrayList<>();
      for (int n = 0; n < nodes; n++) {
        PostgresIdempotencyStore node = new PostgresIdempotencyStore(dataSource);
        runs.add(
            pool.submit(
                () -> {
                  start.await();
                  return node.retainByPartitions(5, LOCK_WAIT);
                }));
      }
      start.countDown();
      int created = 0;
      int dropped = 0;
      long rows = 0;
      for (Future<PartitionRetention> run : runs) {
        PartitionRetention done = run.get();
        created += done.partitionsCreated();
        dropped += done.partitionsDropped();
        rows += done.rowsDropped();
      }
      // A node that found another one at work left it; whatever is left, the next run does.
      PartitionRetention after = store.retainByPartitions(5, LOCK_WAIT);
      assertThat(created + after.partitionsCreated()).isEqualTo(6);
      assertThat(dropped + after.partitionsDropped()).isEqualTo(1);
      assertThat(rows + after.rowsDropped()).isEqualTo(1);
      assertThat(
              strings(
                  dataSource,
                  "SELECT relname FROM pg_class WHERE relname LIKE"
                      + " 'idempotency\\_record\\_detached\\_%'"))
          .isEmpty();
    } finally {
      pool.shutdownNow();
    }
  }

  // ------------------------------------------------------------------ migration and fallback

  @Test
  void migration_existingTableWithRows_isAttachedAsItIs_andKeysKeepTheirAnswers() throws Exception {
    DataSource legacy = freshDatabase();
    migrate(legacy, "21");
    String completed = UUID.randomUUID().toString();
    String processing = UUID.randomUUID().toString();
    executeOn(legacy, legacyRow(completed, "COMPLETED", "now() + interval '3 days'"));
    executeOn(legacy, legacyRow(processing, "PROCESSING", "now() + interval '1 day'"));

    migrate(legacy, null);

    PostgresIdempotencyStore migrated =
        (PostgresIdempotencyStore) JdbcIdempotencyStore.forDataSource(legacy);
    assertThat(migrated.partitioned()).isTrue();
    List<String> partitions =
        strings(legacy, "SELECT partition_name FROM idempotency_partitions()");
    assertThat(partitions)
        .as("the legacy range, then the days V22 made after it, up to today + 8")
        .startsWith("idempotency_record_legacy", "idempotency_record_p" + day(4))
        .endsWith("idempotency_record_p" + day(8), "idempotency_record_default")
        .hasSize(7);
    assertThat(
            strings(
                legacy,
                "SELECT to_char(range_end AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI')"
                    + " FROM idempotency_partitions() WHERE partition_name ="
                    + " 'idempotency_record_legacy'"))
        .as("the end of the day after the last expiry")
        .containsExactly(
            strings(
                    legacy,
                    "SELECT to_char(date_trunc('day', (now() + interval '3 days') AT TIME ZONE"
                        + " 'UTC') + interval '1 day', 'YYYY-MM-DD HH24:MI')")
                .get(0));
    ClaimResult replay =
        migrated.claim(
            new ClaimRequest(
                TENANT,
                OPERATION,
                completed,
                HASH,
                Duration.ofMinutes(1),
                Duration.ofDays(1),
                true));
    assertThat(replay.won()).isFalse();
    assertThat(replay.record().status()).isEqualTo(IdempotencyRecord.Status.COMPLETED);
    ClaimResult busy =
        migrated.claim(
            new ClaimRequest(
                TENANT,
                OPERATION,
                processing,
                HASH,
                Duration.ofMinutes(1),
                Duration.ofDays(1),
                true));
    assertThat(busy.won()).isFalse();

    // The days ahead cannot overlap the legacy range: they start where it ends.
    PartitionRetention run = migrated.retainByPartitions(8, LOCK_WAIT);
    assertThat(run.partitionsDropped()).isZero();
    assertThat(strings(legacy, "SELECT count(*) FROM idempotency_record")).containsExactly("2");
  }

  @Test
  void migration_preparedByTheDba_takesTheBoundOfTheCheck_andTheLegacyRangeIsDroppedWhenOver()
      throws Exception {
    DataSource legacy = freshDatabase();
    migrate(legacy, "21");
    String completed = UUID.randomUUID().toString();
    String processing = UUID.randomUUID().toString();
    executeOn(legacy, legacyRow(completed, "COMPLETED", "now() - interval '3 days'"));
    executeOn(legacy, legacyRow(processing, "PROCESSING", "now() - interval '3 days'"));
    // What docs/scaling.md tells a big installation to run beforehand, CONCURRENTLY.
    executeOn(
        legacy,
        "CREATE UNIQUE INDEX CONCURRENTLY ux_idempotency_record_legacy_expiry"
            + " ON idempotency_record (tenant_id, operation, idempotency_key, expires_at)");
    String bound =
        strings(
                legacy,
                "SELECT to_char(date_trunc('day', now() AT TIME ZONE 'UTC') - interval '1 day',"
                    + " 'YYYY-MM-DD')")
            .get(0);
    executeOn(
        legacy,
        "ALTER TABLE idempotency_record ADD CONSTRAINT ck_idempotency_record_legacy_range"
            + " CHECK (expires_at < '"
            + bound
            + " 00:00:00+00') NOT VALID");
    executeOn(
        legacy,
        "ALTER TABLE idempotency_record VALIDATE CONSTRAINT ck_idempotency_record_legacy_range");

    migrate(legacy, null);

    assertThat(
            strings(
                legacy,
                "SELECT indexrelid::regclass::text FROM pg_index WHERE indrelid ="
                    + " 'idempotency_record_legacy'::regclass AND indisunique"))
        .as("the prepared index serves the new primary key; no other one was built")
        .containsExactly("ux_idempotency_record_legacy_expiry");
    PostgresIdempotencyStore migrated =
        (PostgresIdempotencyStore) JdbcIdempotencyStore.forDataSource(legacy);
    PartitionRetention run = migrated.retainByPartitions(1, LOCK_WAIT);
    assertThat(run.partitionsDropped()).isEqualTo(1);
    assertThat(run.rowsDropped()).isEqualTo(1);
    assertThat(run.processingKept()).isEqualTo(1);
    assertThat(strings(legacy, "SELECT partition_name FROM idempotency_partitions()"))
        .doesNotContain("idempotency_record_legacy");
    assertThat(migrated.find(TENANT, OPERATION, completed)).isEmpty();
    assertThat(migrated.find(TENANT, OPERATION, processing)).isPresent();
  }

  @Test
  void runtimeLoginWithoutDdlRights_maintainsThePartitions_throughTheOwnersFunctions()
      throws Exception {
    String name = "db_" + UUID.randomUUID().toString().replace("-", "");
    execute("CREATE DATABASE " + name);
    DataSource owner = postgres.getDatabase("postgres", name);
    migrate(owner, null);
    // As docs/deployment.md sets a database up, and as RuntimeGrants grants after a migration.
    executeOn(
        owner,
        "DO $$ BEGIN CREATE ROLE shop_runtime LOGIN; EXCEPTION WHEN duplicate_object"
            + " THEN NULL; END $$");
    executeOn(owner, "REVOKE CREATE ON SCHEMA public FROM PUBLIC");
    executeOn(owner, "GRANT USAGE ON SCHEMA public TO shop_runtime");
    executeOn(
        owner,
        "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO shop_runtime");
    executeOn(
        owner,
        "SELECT idempotency_partition_create(CAST(now() AT TIME ZONE 'UTC' AS date) - 2, 1000)");
    // V22 made today and the days after it: one of them goes, for the runtime login to make.
    executeOn(owner, "DROP TABLE idempotency_record_p" + day(2));
    String key = UUID.randomUUID().toString();
    executeOn(owner, legacyRow(key, "COMPLETED", dayStart(-2) + " + interval '1 hour'"));
    PostgresIdempotencyStore runtime =
        (PostgresIdempotencyStore)
            JdbcIdempotencyStore.forDataSource(postgres.getDatabase("shop_runtime", name));

    PartitionRetention run = runtime.retainByPartitions(2, LOCK_WAIT);

    assertThat(run.partitionsCreated()).isEqualTo(1);
    assertThat(run.partitionsDropped()).isEqualTo(1);
    assertThat(run.rowsDropped()).isEqualTo(1);
    assertThat(runtime.administration().purgeExpired(100)).isZero();
  }

  @Test
  void notPartitioned_retainAnswersSo_andTheBatchedPurgeDoesTheWork() throws Exception {
    DataSource plain = freshDatabase();
    migrate(plain, "21");
    String key = UUID.randomUUID().toString();
    executeOn(plain, legacyRow(key, "COMPLETED", "now() - interval '1 day'"));
    PostgresIdempotencyStore unpartitioned =
        (PostgresIdempotencyStore) JdbcIdempotencyStore.forDataSource(plain);

    assertThat(unpartitioned.retainByPartitions(8, LOCK_WAIT))
        .isEqualTo(PartitionRetention.NOT_PARTITIONED);
    assertThat(unpartitioned.administration().purgeExpired(100)).isEqualTo(1);
    assertThat(unpartitioned.administration().tableSizeBytes()).isPresent();
    assertThat(unpartitioned.administration().tableSizeBytes().getAsLong()).isPositive();
  }

  // ------------------------------------------------------------------ helpers

  private ClaimResult claim(String key) {
    return store.claim(
        new ClaimRequest(
            TENANT, OPERATION, key, HASH, Duration.ofMinutes(10), Duration.ofDays(1), true));
  }

  /** A row as a claim, a completion or a release leaves it, with its lease long over. */
  private String insert(String status, String outcome, String expiresAt) throws SQLException {
    String key = newKey();
    execute(
        "INSERT INTO idempotency_record (tenant_id, operation, idempotency_key, request_hash,"
            + " status, outcome, attempt, locked_until, created_at, expires_at) VALUES ('"
            + TENANT
            + "', '"
            + OPERATION
            + "', '"
            + key
            + "', '"
            + HASH
            + "', '"
            + status
            + "', "
            + (outcome == null ? "NULL" : "'" + outcome + "'")
            + ", 1, now() - interval '1 hour', now() - interval '1 hour', "
            + expiresAt
            + ")");
    return key;
  }

  private static String legacyRow(String key, String status, String expiresAt) {
    return "INSERT INTO idempotency_record (tenant_id, operation, idempotency_key, request_hash,"
        + " status, attempt, locked_until, created_at, expires_at) VALUES ('"
        + TENANT
        + "', '"
        + OPERATION
        + "', '"
        + key
        + "', '"
        + HASH
        + "', '"
        + status
        + "', 1, now() + interval '1 hour', now() - interval '1 hour', "
        + expiresAt
        + ")";
  }

  private static StoredResponse response(String id) {
    return new StoredResponse(201, Map.of("Location", "/api/v1/orders/" + id), new byte[] {1});
  }

  private static String newKey() {
    return UUID.randomUUID().toString();
  }

  private static String day(int plus) throws SQLException {
    return strings(
            dataSource,
            "SELECT to_char(CAST(now() AT TIME ZONE 'UTC' AS date) + " + plus + ", 'YYYYMMDD')")
        .get(0);
  }

  /** The start of the UTC day {@code plus} days from today, as SQL. */
  private static String dayStart(int plus) {
    return "((CAST(now() AT TIME ZONE 'UTC' AS date) + "
        + plus
        + ")::timestamp AT TIME ZONE 'UTC')";
  }

  private String partitionOf(String key) throws SQLException {
    return strings(
            dataSource,
            "SELECT tableoid::regclass::text FROM idempotency_record WHERE idempotency_key = '"
                + key
                + "'")
        .get(0);
  }

  private String ctidOf(String key) throws SQLException {
    return strings(
            dataSource,
            "SELECT ctid::text FROM idempotency_record WHERE idempotency_key = '" + key + "'")
        .get(0);
  }

  private int rowsOf(String key) throws SQLException {
    return Integer.parseInt(
        strings(
                dataSource,
                "SELECT count(*) FROM idempotency_record WHERE idempotency_key = '" + key + "'")
            .get(0));
  }

  private static List<String> partitions() {
    try {
      return strings(dataSource, "SELECT partition_name FROM idempotency_partitions()");
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void execute(String sql) throws SQLException {
    executeOn(dataSource, sql);
  }

  private static void executeOn(DataSource on, String sql) throws SQLException {
    try (Connection connection = on.getConnection();
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }

  private static List<String> strings(DataSource on, String sql) throws SQLException {
    try (Connection connection = on.getConnection();
        Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery(sql)) {
      List<String> values = new ArrayList<>();
      while (rs.next()) {
        values.add(rs.getString(1));
      }
      return values;
    }
  }

  private static DataSource freshDatabase() throws SQLException {
    String name = "db_" + UUID.randomUUID().toString().replace("-", "");
    execute("CREATE DATABASE " + name);
    return postgres.getDatabase("postgres", name);
  }

  /** Migrates up to {@code target}, or to the latest migration when null. */
  private static void migrate(DataSource on, String target) {
    var flyway =
        Flyway.configure()
            .dataSource(on)
            .locations("filesystem:" + System.getProperty("sql.dir", "../../sql") + "/postgresql");
    if (target != null) {
      flyway.target(target);
    }
    flyway.load().migrate();
  }
}
