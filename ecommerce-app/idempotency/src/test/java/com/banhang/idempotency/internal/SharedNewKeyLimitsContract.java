package com.banhang.idempotency.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.banhang.idempotency.jdbc.SharedTokenBuckets;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The new-key limit shared through the database (docs/scaling.md, "The new-key limit of the
 * cluster"): three limiters, as three servers would have, each with its own buckets in memory and
 * its own {@link SharedTokenBuckets} over one database, admit together the configured number of new
 * keys, not three times it, and the shared bucket refills. Each database runs it from its own
 * subclass.
 */
abstract class SharedNewKeyLimitsContract {

  private static final int NODES = 3;
  private static final int THREADS_PER_NODE = 4;

  private final Map<String, String> config = new HashMap<>();

  /** The database, migrated by {@link #migrate}. */
  abstract DataSource dataSource();

  static void migrate(DataSource dataSource, String folder) {
    String sqlDir = System.getProperty("sql.dir", "../../sql");
    Flyway.configure()
        .dataSource(dataSource)
        .locations("filesystem:" + sqlDir + "/" + folder)
        .load()
        .migrate();
  }

  @BeforeEach
  void emptyBuckets() throws SQLException {
    try (Connection connection = dataSource().getConnection();
        Statement statement = connection.createStatement()) {
      statement.executeUpdate("DELETE FROM idempotency_new_key_bucket");
    }
  }

  private NewKeyLimits node() {
    return new NewKeyLimits(
        name -> Optional.ofNullable(config.get(name)),
        () ->
            NewKeyLimits.SharedBuckets.over(
                SharedTokenBuckets.forDataSource(dataSource(), Duration.ofSeconds(10))));
  }

  @Test
  void threeNodes_hammeredFromThreads_admitTheLimit_notThreeTimesIt() throws Exception {
    config.put("idempotency.new-keys.tenant.carol", "40/PT1H");
    List<NewKeyLimits> nodes = List.of(node(), node(), node());
    int attemptsPerThread = 25; // 300 attempts in all, each node alone could admit 40
    AtomicInteger admitted = new AtomicInteger();
    AtomicInteger[] admittedBy = {new AtomicInteger(), new AtomicInteger(), new AtomicInteger()};
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService threads = Executors.newFixedThreadPool(NODES * THREADS_PER_NODE);
    try {
      List<Future<?>> running = new ArrayList<>();
      for (int n = 0; n < NODES; n++) {
        int node = n;
        for (int t = 0; t < THREADS_PER_NODE; t++) {
          running.add(
              threads.submit(
                  () -> {
                    start.await();
                    for (int i = 0; i < attemptsPerThread; i++) {
                      if (nodes.get(node).tryAcquire("carol", "orders.create").allowed()) {
                        admitted.incrementAndGet();
                        admittedBy[node].incrementAndGet();
                      }
                    }
                    return null;
                  }));
        }
      }
      start.countDown();
      for (Future<?> thread : running) {
        thread.get(60, TimeUnit.SECONDS); // an exception of the shared bucket fails the test here
      }
    } finally {
      threads.shutdownNow();
    }

    assertThat(admitted.get()).isEqualTo(40);
    // Other tenants and operations have buckets of their own, shared as well.
    assertThat(nodes.get(0).tryAcquire("carol", "payments.charge").allowed()).isTrue();
    assertThat(nodes.get(1).tryAcquire("alice", "orders.create").allowed()).isTrue();
    assertThat(nodes.get(2).tryAcquire("carol", "orders.create").allowed()).isFalse();
  }

  @Test
  void sharedBucket_refusesWithTheWait_andRefills() throws Exception {
    config.put("idempotency.new-keys.tenant.carol", "3/PT3S"); // one token a second
    NewKeyLimits first = node();
    NewKeyLimits second = node();
    for (int i = 0; i < 3; i++) {
      assertThat(first.tryAcquire("carol", "orders.create").allowed()).isTrue();
    }

    NewKeyLimits.Decision refused = second.tryAcquire("carol", "orders.create");
    assertThat(refused.allowed()).as("the second node's own bucket is full").isFalse();
    assertThat(refused.retryAfter()).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(1));

    Thread.sleep(refused.retryAfter().toMillis() + 200);
    assertThat(second.tryAcquire("carol", "orders.create").allowed()).isTrue();
    assertThat(first.tryAcquire("carol", "orders.create").allowed()).isFalse();
  }

  @Test
  void aTokenGivenBack_isSharedToo() {
    config.put("idempotency.new-keys.tenant.carol", "2/PT1H");
    NewKeyLimits first = node();
    NewKeyLimits second = node();
    assertThat(first.tryAcquire("carol", "orders.create").allowed()).isTrue();
    assertThat(first.tryAcquire("carol", "orders.create").allowed()).isTrue();
    assertThat(second.tryAcquire("carol", "orders.create").allowed()).isFalse();

    first.giveBack("carol", "orders.create"); // a concurrent first use of the key won

    assertThat(second.tryAcquire("carol", "orders.create").allowed()).isTrue();
  }

  @Test
  void aChangedLimit_startsABucketOfItsOwn() {
    config.put("idempotency.new-keys.tenant.carol", "1/PT1H");
    assertThat(node().tryAcquire("carol", "orders.create").allowed()).isTrue();
    assertThat(node().tryAcquire("carol", "orders.create").allowed()).isFalse();

    config.put("idempotency.new-keys.tenant.carol", "2/PT1H"); // servers restarted with it

    assertThat(node().tryAcquire("carol", "orders.create").allowed()).isTrue();
  }

  @Test
  void eachTake_recordsWhenItsBucketIsFullAgain_plusAMinuteForTheClocks() throws SQLException {
    config.put("idempotency.new-keys.tenant.carol", "3/PT1H"); // a token back every 20 minutes
    NewKeyLimits node = node();

    assertThat(node.tryAcquire("carol", "orders.create").allowed()).isTrue();
    assertThat(expiresAt()).isCloseTo(nowMillis() + minutes(20 + 1), within(seconds(10)));

    assertThat(node.tryAcquire("carol", "orders.create").allowed()).isTrue();
    assertThat(expiresAt()).isCloseTo(nowMillis() + minutes(40 + 1), within(seconds(10)));
  }

  @Test
  void retention_removesTheBucketsFullAgain_inBatches_andKeepsTheOthers() throws SQLException {
    config.put("idempotency.new-keys.limit", "2/PT1H");
    NewKeyLimits node = node();
    for (int tenant = 0; tenant < 5; tenant++) {
      assertThat(node.tryAcquire("t" + tenant, "orders.create").allowed()).isTrue();
    }
    // Three of them as they stand once full again: a minute past their time.
    int past =
        update(
            "UPDATE idempotency_new_key_bucket SET expires_at = "
                + (nowMillis() - seconds(1))
                + " WHERE id LIKE '%t0%' OR id LIKE '%t1%' OR id LIKE '%t2%'");
    assertThat(past).isEqualTo(3);

    assertThat(node.removeFullSharedBuckets(1, 2)).isEqualTo(2); // no more than two batches
    assertThat(node.removeFullSharedBuckets(2, 10)).isEqualTo(1);
    assertThat(node.removeFullSharedBuckets(2, 10)).isZero();

    assertThat(bucketIds()).hasSize(2).allMatch(id -> id.contains("t3") || id.contains("t4"));
  }

  @Test
  void aRemovedBucket_startsFullAgain_asItWasWhenRemoved() throws SQLException {
    config.put("idempotency.new-keys.tenant.carol", "2/PT1H");
    NewKeyLimits before = node();
    assertThat(before.tryAcquire("carol", "orders.create").allowed()).isTrue();
    update("UPDATE idempotency_new_key_bucket SET expires_at = " + (nowMillis() - seconds(1)));
    assertThat(before.removeFullSharedBuckets(10, 1)).isEqualTo(1);

    NewKeyLimits after = node(); // a server that never took from it
    assertThat(after.tryAcquire("carol", "orders.create").allowed()).isTrue();
    assertThat(after.tryAcquire("carol", "orders.create").allowed()).isTrue();
    assertThat(after.tryAcquire("carol", "orders.create").allowed()).isFalse();
    assertThat(bucketIds()).hasSize(1);
  }

  @Test
  void aLimitOfEachServerAlone_hasNoSharedBucketsToRemove() {
    NewKeyLimits alone = new NewKeyLimits(name -> Optional.ofNullable(config.get(name)));
    assertThat(alone.removeFullSharedBuckets(10, 10)).isZero();
  }

  @Test
  void fullBuckets_areDeletedEvenWhereThePoolHandsOutConnectionsWithAutoCommitOff()
      throws SQLException {
    DataSource autoCommitOff =
        (DataSource)
            Proxy.newProxyInstance(
                getClass().getClassLoader(),
                new Class<?>[] {DataSource.class},
                (proxy, method, args) -> {
                  Object result = method.invoke(dataSource(), args);
                  if (result instanceof Connection connection) {
                    connection.setAutoCommit(false); // as a take left it, with no reset
                  }
                  return result;
                });
    NewKeyLimits node =
        new NewKeyLimits(
            name -> Optional.of("2/PT1H").filter(v -> name.equals(NewKeyLimits.GLOBAL)),
            () ->
                NewKeyLimits.SharedBuckets.over(
                    SharedTokenBuckets.forDataSource(autoCommitOff, Duration.ofSeconds(10))));
    assertThat(node.tryAcquire("dave", "orders.create").allowed()).isTrue();
    try (Connection connection = dataSource().getConnection();
        Statement statement = connection.createStatement()) {
      statement.executeUpdate(
          "UPDATE idempotency_new_key_bucket SET expires_at = "
              + (System.currentTimeMillis() - 1_000));
    }

    assertThat(node.removeFullSharedBuckets(10, 1)).isEqualTo(1);

    try (Connection connection = dataSource().getConnection();
        Statement statement = connection.createStatement();
        ResultSet count =
            statement.executeQuery("SELECT count(*) FROM idempotency_new_key_bucket")) {
      assertThat(count.next()).isTrue();
      assertThat(count.getInt(1)).as("the deletion was committed").isZero();
    }
  }

  private long expiresAt() throws SQLException {
    try (Connection connection = dataSource().getConnection();
        Statement statement = connection.createStatement();
        ResultSet rows =
            statement.executeQuery("SELECT expires_at FROM idempotency_new_key_bucket")) {
      assertThat(rows.next()).isTrue();
      long expiresAt = rows.getLong(1);
      assertThat(rows.wasNull()).isFalse();
      assertThat(rows.next()).as("one bucket").isFalse();
      return expiresAt;
    }
  }

  private List<String> bucketIds() throws SQLException {
    List<String> ids = new ArrayList<>();
    try (Connection connection = dataSource().getConnection();
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("SELECT id FROM idempotency_new_key_bucket")) {
      while (rows.next()) {
        ids.add(rows.getString(1));
      }
    }
    return ids;
  }

  private int update(String sql) throws SQLException {
    try (Connection connection = dataSource().getConnection();
        Statement statement = connection.createStatement()) {
      return statement.executeUpdate(sql);
    }
  }

  private static long nowMillis() {
    return System.currentTimeMillis();
  }

  private static long minutes(long minutes) {
    return Duration.ofMinutes(minutes).toMillis();
  }

  private static long seconds(long seconds) {
    return Duration.ofSeconds(seconds).toMillis();
  }
}
