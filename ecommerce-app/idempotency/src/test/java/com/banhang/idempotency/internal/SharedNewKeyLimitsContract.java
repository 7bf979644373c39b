package com.banhang.idempotency.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.banhang.idempotency.jdbc.SharedTokenBuckets;
import java.sql.Connection;
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
}
