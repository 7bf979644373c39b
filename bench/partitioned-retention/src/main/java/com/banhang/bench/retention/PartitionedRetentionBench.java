package com.banhang.bench.retention;

import com.banhang.idempotency.StoredResponse;
import com.banhang.idempotency.jdbc.PostgresIdempotencyStore;
import com.banhang.idempotency.spi.IdempotencyStore.ClaimRequest;
import com.banhang.idempotency.spi.IdempotencyStore.ClaimResult;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.PrintWriter;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;

/**
 * Claim latency while retention runs, on a key table of {@code --rows} rows, partitioned by expiry
 * day (sql/postgresql V22: one expired day detached and dropped) against the batched purge of an
 * unpartitioned table (V21: the store's DELETE of 1,000 rows at a time, 10 ms apart, until the day
 * is gone), side by side in one PostgreSQL: two databases loaded alike, interleaved rounds, each
 * with a warm-up, a baseline without retention and a window while retention runs. Prints Markdown
 * to standard output; progress goes to standard error.
 */
public final class PartitionedRetentionBench {

  private static final Logger LOG = Logger.getLogger(PartitionedRetentionBench.class.getName());
  private static final String TENANT = "bench";
  private static final String OPERATION = "orders.create";
  /** Days of expiry the rows spread over: EXPIRED_DAYS before today, then the rest ahead. */
  private static final int DAYS = 10;

  private static final int EXPIRED_DAYS = 3;

  private final Map<String, String> options;
  private final PrintWriter out = new PrintWriter(System.out, true);
  private final int rows;
  private final int rounds;
  private final int rate;
  private final int threads;
  private final Duration warmUp;
  private final Duration baseline;

  private PartitionedRetentionBench(Map<String, String> options) {
    this.options = options;
    this.rows = Integer.parseInt(options.getOrDefault("rows", "10000000"));
    this.rounds = Math.min(EXPIRED_DAYS, Integer.parseInt(options.getOrDefault("rounds", "3")));
    this.rate = Integer.parseInt(options.getOrDefault("rate", "400"));
    this.threads = Integer.parseInt(options.getOrDefault("threads", "8"));
    this.warmUp = Duration.ofSeconds(Long.parseLong(options.getOrDefault("warm-up-s", "10")));
    this.baseline = Duration.ofSeconds(Long.parseLong(options.getOrDefault("baseline-s", "10")));
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> options = new HashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      options.put(args[i].replaceFirst("^--", ""), args[i + 1]);
    }
    new PartitionedRetentionBench(options).run();
  }

  private void run() throws Exception {
    Path dataDir = Path.of(options.get("data-dir"));
    Files.createDirectories(dataDir.getParent());
    try (EmbeddedPostgres postgres =
        EmbeddedPostgres.builder()
            .setDataDirectory(dataDir)
            .setCleanDataDirectory(true)
            .setServerConfig("listen_addresses", "127.0.0.1")
            // Durable like a deployment (the embedded defaults turn both off).
            .setServerConfig("fsync", "on")
            .setServerConfig("synchronous_commit", "on")
            .setServerConfig("shared_buffers", options.getOrDefault("shared-buffers", "1GB"))
            .setServerConfig("maintenance_work_mem", "512MB")
            .setServerConfig("max_wal_size", "8GB")
            .setServerConfig("max_connections", "100")
            .start()) {
      DataSource admin = postgres.getPostgresDatabase();
      execute(admin, "CREATE DATABASE batched");
      execute(admin, "CREATE DATABASE partitioned");
      DataSource batched = postgres.getDatabase("postgres", "batched");
      DataSource partitioned = postgres.getDatabase("postgres", "partitioned");
      migrate(batched, "21");
      migrate(partitioned, null);
      header(admin);
      long t0 = System.nanoTime();
      load(batched, false);
      load(partitioned, true);
      out.printf(
          Locale.ROOT,
          "- load of both tables: %.0f s%n%n",
          (System.nanoTime() - t0) / 1e9);
      sizes(batched, "batched (V21, unpartitioned)");
      sizes(partitioned, "partitioned (V22, by expiry day)");

      List<Window> windows = new ArrayList<>();
      for (int round = 1; round <= rounds; round++) {
        int day = -EXPIRED_DAYS + round - 1;
        boolean batchedFirst = round % 2 == 1;
        for (int side = 0; side < 2; side++) {
          boolean isBatched = (side == 0) == batchedFirst;
          windows.addAll(
              measure(admin, isBatched ? batched : partitioned, isBatched, round, day));
        }
      }
      report(windows);
      survivors(batched, partitioned);
    }
  }

  // ---- the load ---------------------------------------------------------------------------------

  /**
   * Rows spread evenly over DAYS days of expiry, EXPIRED_DAYS of them past, as the shop leaves
   * them: completed {@code orders.create} keys (UUID key, 64-character fingerprint, the two stored
   * headers, a 336-byte body: the size of a sealed order, docs/scaling.md), 0.1% still processing
   * (stuck). Written by INSERT ... SELECT in 1,000,000-row transactions with the key table's
   * indexes dropped, then the indexes built again exactly as the migrations define them, then
   * VACUUM ANALYZE: the shape of a table in service, loaded in minutes rather than hours.
   */
  private void load(DataSource db, boolean partitioned) throws SQLException {
    String name = partitioned ? "partitioned" : "batched";
    if (partitioned) {
      for (int d = -EXPIRED_DAYS; d < DAYS - EXPIRED_DAYS + 2; d++) {
        execute(
            db,
            "SELECT idempotency_partition_create(CAST(now() AT TIME ZONE 'UTC' AS date) + ("
                + d
                + "), 1000)");
      }
    }
    execute(db, "ALTER TABLE idempotency_record DROP CONSTRAINT pk_idempotency_record");
    execute(db, "DROP INDEX ix_idempotency_record_expires");
    execute(db, "DROP INDEX ix_idempotency_record_processing");
    int chunk = 1_000_000;
    for (int from = 0; from < rows; from += chunk) {
      int to = Math.min(rows, from + chunk) - 1;
      long t = System.nanoTime();
      // Rows in expiry order, one day after the other, as keys of one TTL are written over time:
      // the rows of one day lie together in the heap, the batched purge's best case.
      long perDay = Math.max(1, rows / DAYS);
      execute(
          db,
          "INSERT INTO idempotency_record (tenant_id, operation, idempotency_key, request_hash,"
              + " status, outcome, attempt, locked_until, created_at, completed_at, expires_at,"
              + " resource_ref, response_code, response_headers, response_body)"
              + " SELECT '"
              + TENANT
              + "', '"
              + OPERATION
              + "', md5(i::text || 'k')::uuid::text, md5(i::text) || md5(i::text || 'h'),"
              + " CASE WHEN i % 1000 = 7 THEN 'PROCESSING' ELSE 'COMPLETED' END, NULL, 1,"
              + " e - interval '1 day', e - interval '1 day',"
              + " CASE WHEN i % 1000 = 7 THEN NULL ELSE e - interval '1 day' END, e,"
              + " NULL, 201, 'Location: /api/v1/orders/' || i || E'\\n'"
              + " || 'Content-Type: application/json' || repeat(' ', 35),"
              + " decode(repeat(md5(i::text), 21), 'hex')"
              + " FROM (SELECT i, ((CAST(now() AT TIME ZONE 'UTC' AS date) + LEAST("
              + (DAYS - 1)
              + ", i / "
              + perDay
              + ") - "
              + EXPIRED_DAYS
              + ")::timestamp AT TIME ZONE 'UTC') + (i % "
              + perDay
              + ") * (86000.0 / "
              + perDay
              + ") * interval '1 second' + interval '100 seconds' AS e"
              + " FROM generate_series("
              + from
              + ", "
              + to
              + ") i) g");
      log("%s: rows %,d..%,d loaded in %.0f s", name, from, to, (System.nanoTime() - t) / 1e9);
    }
    long t = System.nanoTime();
    execute(
        db,
        "ALTER TABLE idempotency_record ADD CONSTRAINT pk_idempotency_record PRIMARY KEY ("
            + (partitioned
                ? "tenant_id, operation, idempotency_key, expires_at"
                : "tenant_id, operation, idempotency_key")
            + ")");
    execute(db, "CREATE INDEX ix_idempotency_record_expires ON idempotency_record (expires_at)");
    execute(
        db,
        "CREATE INDEX ix_idempotency_record_processing ON idempotency_record (operation,"
            + " created_at) WHERE status = 'PROCESSING'");
    execute(db, "VACUUM ANALYZE idempotency_record");
    if (partitioned) {
      // VACUUM ANALYZE of a partitioned table analyzes its partitions; the parent's own
      // statistics need their own ANALYZE.
      execute(db, "ANALYZE idempotency_record");
    }
    log("%s: indexes and VACUUM ANALYZE in %.0f s", name, (System.nanoTime() - t) / 1e9);
  }

  private void sizes(DataSource db, String title) throws SQLException {
    long bytes =
        queryLong(
            db,
            "SELECT COALESCE(SUM(pg_total_relation_size(relid)),"
                + " pg_total_relation_size('idempotency_record'))"
                + " FROM pg_partition_tree('idempotency_record')");
    long count = queryLong(db, "SELECT count(*) FROM idempotency_record");
    long heap =
        queryLong(
            db,
            "SELECT COALESCE(SUM(pg_relation_size(relid)), pg_relation_size('idempotency_record'))"
                + " FROM pg_partition_tree('idempotency_record')");
    out.printf(
        Locale.ROOT,
        "- %s: %,d rows, %.2f GB with indexes (%.0f B per row; heap %.0f B per row)%n",
        title,
        count,
        bytes / 1e9,
        (double) bytes / count,
        (double) heap / count);
  }

  // ---- one side of one round --------------------------------------------------------------------

  /** One measured run: claims without retention (baseline), then while retention runs. */
  record Window(
      int round,
      boolean batched,
      String phase,
      long[] latenciesNanos,
      long claims,
      double seconds,
      long rowsRemoved,
      long walBytes) {}

  private List<Window> measure(
      DataSource admin, DataSource db, boolean batched, int round, int day) throws Exception {
    String side = batched ? "batched" : "partitioned";
    execute(admin, "CHECKPOINT");
    Load load = new Load(db);
    load.start();
    try {
      Thread.sleep((round == 1 ? 2 : 1) * warmUp.toMillis());
      load.reset();
      long walBefore = walLsn(admin);
      Thread.sleep(baseline.toMillis());
      Window base =
          new Window(
              round,
              batched,
              "baseline",
              load.reset(),
              0,
              baseline.toMillis() / 1000.0,
              0,
              walLsn(admin) - walBefore);
      long walStart = walLsn(admin);
      long t = System.nanoTime();
      long removed = batched ? purgeDay(db, day) : dropDay(db, day);
      double seconds = (System.nanoTime() - t) / 1e9;
      long wal = walLsn(admin) - walStart;
      Window during =
          new Window(
              round,
              batched,
              "retention",
              load.reset(),
              0,
              seconds,
              removed,
              wal);
      log(
          "round %d %s: removed %,d rows of day %d in %.1f s, WAL %,d bytes (claims included)",
          round, side, removed, day, seconds, wal);
      return List.of(base, during);
    } finally {
      load.stop();
    }
  }

  /**
   * The batched purge as the shop runs it (PostgresIdempotencyStore's statement for an
   * unpartitioned table, batches of idempotency.retention.batch-size = 1,000, each its own
   * transaction, idempotency.retention.batch-pause = 10 ms between two), over the rows of one day:
   * the cut-off is that day's end instead of now, so that each round removes one day, as a drop
   * does. It runs until a batch comes back short, not only max-batches (100) batches.
   */
  private long purgeDay(DataSource db, int day) throws Exception {
    String dayEnd =
        "((CAST(now() AT TIME ZONE 'UTC' AS date) + (" + (day + 1) + "))::timestamp AT TIME ZONE"
            + " 'UTC')";
    long removed = 0;
    try (Connection connection = db.getConnection();
        PreparedStatement delete =
            connection.prepareStatement(
                "DELETE FROM idempotency_record WHERE ctid IN (SELECT ctid FROM"
                    + " idempotency_record WHERE status IN ('COMPLETED', 'RELEASED') AND"
                    + " expires_at < "
                    + dayEnd
                    + " LIMIT ?)")) {
      while (true) {
        delete.setInt(1, 1000);
        int n = delete.executeUpdate();
        removed += n;
        if (n < 1000) {
          return removed;
        }
        Thread.sleep(10);
      }
    }
  }

  /**
   * The job's two steps for one partition, the functions PostgresIdempotencyStore's
   * retainByPartitions calls for each partition whose range ended: the detach, with the day's
   * processing rows given back in its transaction, then the count and the DROP TABLE.
   */
  private long dropDay(DataSource db, int day) throws SQLException {
    String partition =
        "idempotency_record_p"
            + queryString(
                db,
                "SELECT to_char(CAST(now() AT TIME ZONE 'UTC' AS date) + ("
                    + day
                    + "), 'YYYYMMDD')");
    String given = null;
    for (int attempt = 0; given == null && attempt < 20; attempt++) {
      // NULL: the lock was not had within 500 ms; the job would try again at its next run.
      given = queryString(db, "SELECT idempotency_partition_detach('" + partition + "', 500)");
    }
    long kept = Long.parseLong(given);
    long dropped =
        queryLong(
            db, "SELECT idempotency_partition_drop('idempotency_record_detached_" + partition + "')");
    log("%s: %,d processing rows given back, %,d finished rows dropped", partition, kept, dropped);
    return dropped;
  }

  /**
   * Claims at a fixed rate from a pool of threads, each with its own connection: 3 in 4 a new key
   * (claimed, then completed), 1 in 4 a replay of a key claimed earlier in the run. A claim's
   * latency is counted from the moment it was due, so that a stall delays and counts every claim
   * behind it (no coordinated omission).
   */
  private final class Load {
    private final PostgresIdempotencyStore store;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong claims = new AtomicLong();
    private volatile ConcurrentLinkedQueue<Long> latencies = new ConcurrentLinkedQueue<>();
    private final List<Thread> workers = new ArrayList<>();
    private final List<Connection> connections = new ArrayList<>();
    private final List<String> recent = new ArrayList<>();

    Load(DataSource db) throws SQLException {
      this.store = new PostgresIdempotencyStore(connectionPerThread(db));
    }

    void start() {
      long intervalNanos = 1_000_000_000L * threads / rate;
      long start = System.nanoTime();
      for (int t = 0; t < threads; t++) {
        long offset = intervalNanos * t / threads;
        Thread worker =
            new Thread(
                () -> {
                  long due = start + offset;
                  while (running.get()) {
                    long wait = due - System.nanoTime();
                    if (wait > 0) {
                      try {
                        Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                      } catch (InterruptedException e) {
                        return;
                      }
                    }
                    latencies.add(claimOnce() - due);
                    claims.incrementAndGet();
                    due += intervalNanos;
                  }
                },
                "claims-" + t);
        worker.setDaemon(true);
        workers.add(worker);
        worker.start();
      }
    }

    /** Claims one key, and completes it when won; returns when the claim answered. */
    private long claimOnce() {
      String replay = null;
      synchronized (recent) {
        if (!recent.isEmpty() && ThreadLocalRandom.current().nextInt(4) == 0) {
          replay = recent.get(ThreadLocalRandom.current().nextInt(recent.size()));
        }
      }
      String key = replay != null ? replay : UUID.randomUUID().toString();
      ClaimResult result =
          store.claim(
              new ClaimRequest(
                  TENANT,
                  OPERATION,
                  key,
                  "c".repeat(64),
                  Duration.ofSeconds(30),
                  Duration.ofDays(1),
                  false));
      long answered = System.nanoTime();
      if (result.won()) {
        store.complete(
            result.record().claimedKey(),
            new StoredResponse(201, Map.of("Location", "/api/v1/orders/1"), new byte[296]));
        synchronized (recent) {
          if (recent.size() < 10_000) {
            recent.add(key);
          } else {
            recent.set(ThreadLocalRandom.current().nextInt(recent.size()), key);
          }
        }
      }
      return answered;
    }

    /** The latencies since the last reset, sorted. */
    long[] reset() {
      ConcurrentLinkedQueue<Long> taken = latencies;
      latencies = new ConcurrentLinkedQueue<>();
      long[] sorted = taken.stream().mapToLong(Long::longValue).toArray();
      Arrays.sort(sorted);
      return sorted;
    }

    void stop() throws Exception {
      running.set(false);
      for (Thread worker : workers) {
        worker.join(60_000);
      }
      synchronized (connections) {
        for (Connection c : connections) {
          c.close();
        }
      }
    }

    /** One connection per thread, kept open (the store closes what it gets: that is a no-op). */
    private DataSource connectionPerThread(DataSource db) {
      ThreadLocal<Connection> perThread =
          ThreadLocal.withInitial(
              () -> {
                try {
                  Connection c = db.getConnection();
                  synchronized (connections) {
                    connections.add(c);
                  }
                  return c;
                } catch (SQLException e) {
                  throw new IllegalStateException(e);
                }
              });
      return (DataSource)
          Proxy.newProxyInstance(
              DataSource.class.getClassLoader(),
              new Class<?>[] {DataSource.class},
              (proxy, method, args) -> {
                if (method.getName().equals("getConnection")) {
                  Connection real = perThread.get();
                  return Proxy.newProxyInstance(
                      Connection.class.getClassLoader(),
                      new Class<?>[] {Connection.class},
                      (p, m, a) -> m.getName().equals("close") ? null : m.invoke(real, a));
                }
                return method.invoke(db, args);
              });
    }
  }

  // ---- the report -------------------------------------------------------------------------------

  private void report(List<Window> windows) {
    out.println();
    out.println("### Claim latency while retention removes one expired day");
    out.println();
    out.println(
        "| round | side | phase | claims | p50 ms | p99 ms | max ms | retention s | rows removed |"
            + " WAL MB (claims included) |");
    out.println("|---|---|---|---|---|---|---|---|---|---|");
    for (Window w : windows) {
      out.printf(
          Locale.ROOT,
          "| %d | %s | %s | %,d | %.2f | %.2f | %.1f | %s | %s | %.1f |%n",
          w.round(),
          w.batched() ? "batched" : "partitioned",
          w.phase(),
          w.latenciesNanos().length,
          percentile(w.latenciesNanos(), 0.50),
          percentile(w.latenciesNanos(), 0.99),
          percentile(w.latenciesNanos(), 1.0),
          w.phase().equals("retention") ? String.format(Locale.ROOT, "%.1f", w.seconds()) : "",
          w.phase().equals("retention") ? String.format(Locale.ROOT, "%,d", w.rowsRemoved()) : "",
          w.walBytes() / 1e6);
    }
    out.println();
    out.println("All rounds together:");
    out.println();
    out.println("| side | phase | claims | p50 ms | p99 ms | max ms |");
    out.println("|---|---|---|---|---|---|");
    for (boolean batched : new boolean[] {true, false}) {
      for (String phase : List.of("baseline", "retention")) {
        long[] all =
            windows.stream()
                .filter(w -> w.batched() == batched && w.phase().equals(phase))
                .flatMapToLong(w -> Arrays.stream(w.latenciesNanos()))
                .sorted()
                .toArray();
        out.printf(
            Locale.ROOT,
            "| %s | %s | %,d | %.2f | %.2f | %.1f |%n",
            batched ? "batched" : "partitioned",
            phase,
            all.length,
            percentile(all, 0.50),
            percentile(all, 0.99),
            percentile(all, 1.0));
      }
    }
  }

  private void survivors(DataSource batched, DataSource partitioned) throws SQLException {
    out.println();
    for (DataSource db : List.of(batched, partitioned)) {
      out.printf(
          Locale.ROOT,
          "- %s: %,d processing rows of the removed days still there (the load made %,d per day)%n",
          db == batched ? "batched" : "partitioned",
          queryLong(
              db,
              "SELECT count(*) FROM idempotency_record WHERE status = 'PROCESSING' AND expires_at"
                  + " < ((CAST(now() AT TIME ZONE 'UTC' AS date) + ("
                  + (-EXPIRED_DAYS + rounds)
                  + "))::timestamp AT TIME ZONE 'UTC')"),
          (rows / DAYS + 999) / 1000);
    }
  }

  private static double percentile(long[] sorted, double p) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    int index = (int) Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1);
    return sorted[Math.max(0, index)] / 1e6;
  }

  private void header(DataSource admin) throws SQLException {
    out.printf(
        Locale.ROOT,
        "- PostgreSQL: %s%n- rows per table: %,d over %d expiry days (%d expired), %,d per day%n"
            + "- claims: %d a second from %d threads, each its own connection; 3 in 4 new keys"
            + " (claim, then complete), 1 in 4 replays%n- rounds: %d (one expired day removed per"
            + " side and round; order alternates), warm-up %d s (twice in round 1), baseline %d"
            + " s%n",
        queryString(admin, "SHOW server_version"),
        rows,
        DAYS,
        EXPIRED_DAYS,
        rows / DAYS,
        rate,
        threads,
        rounds,
        warmUp.toSeconds(),
        baseline.toSeconds());
  }

  // ---- JDBC helpers -----------------------------------------------------------------------------

  private static void migrate(DataSource db, String target) {
    var flyway =
        Flyway.configure()
            .dataSource(db)
            .locations("filesystem:" + Path.of(System.getProperty("sql.dir")).resolve("postgresql"));
    if (target != null) {
      flyway.target(target);
    }
    flyway.load().migrate();
  }

  private static long walLsn(DataSource admin) throws SQLException {
    return queryLong(admin, "SELECT pg_current_wal_lsn() - '0/0'::pg_lsn");
  }

  private static void execute(DataSource db, String sql) throws SQLException {
    try (Connection c = db.getConnection();
        Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  private static long queryLong(DataSource db, String sql) throws SQLException {
    return Long.parseLong(queryString(db, sql).replaceAll("\\..*", ""));
  }

  private static String queryString(DataSource db, String sql) throws SQLException {
    try (Connection c = db.getConnection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getString(1);
    }
  }

  private static void log(String format, Object... args) {
    System.err.printf(Locale.ROOT, "[bench] " + format + "%n", args);
  }
}
