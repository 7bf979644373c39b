package com.banhang.idempotency.internal;

import com.banhang.idempotency.jdbc.SharedTokenBuckets;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;

/**
 * What the new-key limit costs per new key (bench/new-key-limit/README.md): the library's own
 * {@link NewKeyLimits} (hence this package), in memory only and shared through a database, measured
 * in alternating rounds in one JVM so that the machine's noise falls on every mode alike. A new key
 * here is one {@code tryAcquire}: the limit is so high that none is refused, so every call of the
 * shared modes goes to the database, as every allowed new key does in the shop.
 *
 * <p>Arguments: {@code --threads 1,4 --rounds 5 --warmup-seconds 3 --seconds 3 --tenants 1000 --sql
 * <repository>/sql}.
 */
public final class NewKeyLimitBench {

  private static final String LIMIT = "999999999/PT1S";

  public static void main(String[] args) throws Exception {
    Map<String, String> options = options(args);
    int[] threadCounts =
        Arrays.stream(options.getOrDefault("threads", "1,4").split(","))
            .mapToInt(Integer::parseInt)
            .toArray();
    int rounds = Integer.parseInt(options.getOrDefault("rounds", "5"));
    Duration warmup =
        Duration.ofSeconds(Long.parseLong(options.getOrDefault("warmup-seconds", "3")));
    Duration measured = Duration.ofSeconds(Long.parseLong(options.getOrDefault("seconds", "3")));
    int tenants = Integer.parseInt(options.getOrDefault("tenants", "1000"));
    Path sql = Path.of(options.getOrDefault("sql", "sql"));

    try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().start()) {
      DataSource pg = postgres.getPostgresDatabase();
      create(pg, sql.resolve("postgresql/V21__new_key_buckets.sql"));
      create(pg, sql.resolve("postgresql/V23__new_key_bucket_expiry.sql"));
      JdbcDataSource h2 = new JdbcDataSource();
      h2.setURL("jdbc:h2:mem:bench;DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000");
      create(h2, sql.resolve("h2/V21__new_key_buckets.sql"));
      create(h2, sql.resolve("h2/V23__new_key_bucket_expiry.sql"));

      Map<String, DataSource> modes = new LinkedHashMap<>();
      modes.put("in memory only", null);
      modes.put("shared, PostgreSQL", pg);
      modes.put("shared, H2 (embedded)", h2);

      System.out.printf(
          Locale.ROOT,
          "# New-key limit: cost per new key%n%n%s, %d round(s) per mode, alternating; each round"
              + " %s warm-up then %s measured; %d tenants (spread) or 1 (hot); %s.%n%n",
          Runtime.version(),
          rounds,
          warmup,
          measured,
          tenants,
          "median of the rounds");
      System.out.println(
          "| threads | tenants | mode | new keys/s | µs per new key (per thread) | vs in memory |");
      System.out.println("|---:|---|---|---:|---:|---:|");
      for (int threads : threadCounts) {
        for (int spread : new int[] {tenants, 1}) {
          Map<String, List<Double>> perSecond = new LinkedHashMap<>();
          for (int round = 0; round < rounds; round++) {
            for (Map.Entry<String, DataSource> mode : modes.entrySet()) {
              clear(pg);
              clear(h2);
              BenchPool pool =
                  mode.getValue() == null ? null : new BenchPool(mode.getValue(), threads);
              double rate = run(limits(pool), threads, spread, warmup, measured);
              if (pool != null) {
                pool.close();
              }
              perSecond.computeIfAbsent(mode.getKey(), k -> new ArrayList<>()).add(rate);
            }
          }
          double base = median(perSecond.get("in memory only"));
          for (Map.Entry<String, List<Double>> mode : perSecond.entrySet()) {
            double rate = median(mode.getValue());
            System.out.printf(
                Locale.ROOT,
                "| %d | %s | %s | %,.0f | %.2f | %.1f× |%n",
                threads,
                spread == 1 ? "1 (hot)" : spread + " (spread)",
                mode.getKey(),
                rate,
                threads * 1e6 / rate,
                base / rate);
          }
        }
      }
    }
  }

  private static NewKeyLimits limits(DataSource shared) {
    Map<String, String> config = new HashMap<>();
    config.put(NewKeyLimits.GLOBAL, LIMIT);
    return shared == null
        ? new NewKeyLimits(name -> Optional.ofNullable(config.get(name)))
        : new NewKeyLimits(
            name -> Optional.ofNullable(config.get(name)),
            () ->
                NewKeyLimits.SharedBuckets.over(
                    SharedTokenBuckets.forDataSource(shared, Duration.ofSeconds(10))));
  }

  /** New keys per second over {@code measured}, after {@code warmup}, from {@code threads}. */
  private static double run(
      NewKeyLimits limits, int threads, int tenants, Duration warmup, Duration measured)
      throws InterruptedException {
    LongAdder done = new LongAdder();
    AtomicBoolean counting = new AtomicBoolean();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicBoolean refused = new AtomicBoolean();
    CountDownLatch finished = new CountDownLatch(threads);
    for (int t = 0; t < threads; t++) {
      int offset = t;
      Thread thread =
          new Thread(
              () -> {
                int i = offset;
                while (!stop.get()) {
                  String tenant = "tenant-" + (i++ % tenants);
                  if (!limits.tryAcquire(tenant, "orders.create").allowed()) {
                    refused.set(true);
                  }
                  if (counting.get()) {
                    done.increment();
                  }
                }
                finished.countDown();
              });
      thread.setDaemon(true);
      thread.start();
    }
    Thread.sleep(warmup.toMillis());
    counting.set(true);
    long started = System.nanoTime();
    Thread.sleep(measured.toMillis());
    long count = done.sum();
    long elapsed = System.nanoTime() - started;
    stop.set(true);
    finished.await();
    if (refused.get()) {
      throw new IllegalStateException("a new key was refused: the limit must never be reached");
    }
    return count * 1e9 / elapsed;
  }

  /** Runs a migration's statements, one by one: each ends with a semicolon at the end of a line. */
  private static void create(DataSource dataSource, Path script) throws Exception {
    try (Connection connection = dataSource.getConnection();
        Statement statement = connection.createStatement()) {
      for (String sql : Files.readString(script).split(";\\s*\\n")) {
        if (!sql.lines().allMatch(line -> line.isBlank() || line.startsWith("--"))) {
          statement.execute(sql);
        }
      }
    }
  }

  private static void clear(DataSource dataSource) throws Exception {
    try (Connection connection = dataSource.getConnection();
        Statement statement = connection.createStatement()) {
      statement.executeUpdate("DELETE FROM idempotency_new_key_bucket");
    }
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    sorted.sort(null);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  private static Map<String, String> options(String[] args) {
    Map<String, String> options = new HashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      if (!args[i].startsWith("--")) {
        throw new IllegalArgumentException("an option is --name value, not " + args[i]);
      }
      options.put(args[i].substring(2), args[i + 1]);
    }
    return options;
  }
}
