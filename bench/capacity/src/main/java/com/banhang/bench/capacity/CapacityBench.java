package com.banhang.bench.capacity;

import com.banhang.idempotency.IdempotencyRecord;
import com.banhang.idempotency.StoredResponse;
import com.banhang.idempotency.jdbc.JdbcIdempotencyStore;
import com.banhang.idempotency.jdbc.PostgresIdempotencyStore;
import com.banhang.idempotency.jdbc.ResponseBodyCipher;
import com.banhang.idempotency.spi.IdempotencyStore.ClaimRequest;
import com.banhang.idempotency.spi.IdempotencyStore.ClaimResult;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;

/**
 * The capacity harness of docs/scaling.md ("Capacity model"); bench/capacity/README.md says what it
 * measures and how. Starts its own PostgreSQL from the embedded binaries the PostgreSQL tests use,
 * migrates it from sql/postgresql, loads key rows through the library's own store ({@link
 * PostgresIdempotencyStore}, bodies sealed by {@link ResponseBodyCipher}), measures bytes per row
 * and per index entry, the same rows with the body replaced by a reference, the writes and WAL of
 * keyed requests driven through the store, and one retention run; then prints the model ({@link
 * CapacityModel}) as Markdown.
 */
public final class CapacityBench {

  private static final String ORDERS = "orders.create";
  private static final String PAYMENTS = "payments.charge";
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final HexFormat HEX = HexFormat.of();

  private final Options options;
  private final StringBuilder out = new StringBuilder();
  private final ResponseBodyCipher cipher;
  private DataSource dataSource;

  private CapacityBench(Options options) {
    this.options = options;
    byte[] key = new byte[32];
    RANDOM.nextBytes(key);
    // A ring of one key, as production configures it (idempotency.body-keys, docs/idempotency.md).
    this.cipher =
        ResponseBodyCipher.keyring(
            Map.of("2026-12", Base64.getEncoder().encodeToString(key)), "2026-12");
  }

  /** Command-line options; the assumptions of the model are options too, printed with it. */
  record Options(
      int rows,
      int requests,
      Path sqlDir,
      Path dataDir,
      double ratePerSecond,
      double diskTb,
      double diskShare,
      double iops,
      double walMbPerSecond,
      double headroom) {

    static Options parse(String[] args) {
      Map<String, String> given = new LinkedHashMap<>();
      for (int i = 0; i < args.length; i += 2) {
        if (!args[i].startsWith("--") || i + 1 >= args.length) {
          throw new IllegalArgumentException("expected --name value pairs, got " + args[i]);
        }
        given.put(args[i].substring(2), args[i + 1]);
      }
      Function<String, String> get = name -> given.remove(name);
      Options options =
          new Options(
              Integer.parseInt(or(get.apply("rows"), "1000000")),
              Integer.parseInt(or(get.apply("requests"), "2000")),
              Path.of(or(get.apply("sql-dir"), "sql")),
              Path.of(or(get.apply("data-dir"), "target/capacity/pgdata")),
              Double.parseDouble(or(get.apply("rate"), "1000")),
              Double.parseDouble(or(get.apply("disk-tb"), "2")),
              Double.parseDouble(or(get.apply("disk-share"), "0.5")),
              Double.parseDouble(or(get.apply("iops"), "10000")),
              Double.parseDouble(or(get.apply("wal-mb-per-second"), "100")),
              Double.parseDouble(or(get.apply("headroom"), "0.5")));
      if (!given.isEmpty()) {
        throw new IllegalArgumentException("unknown options: " + given.keySet());
      }
      return options;
    }

    private static String or(String value, String otherwise) {
      return value == null ? otherwise : value;
    }
  }

  public static void main(String[] args) throws Exception {
    Options options = Options.parse(args);
    new CapacityBench(options).run();
  }

  private void run() throws Exception {
    Files.createDirectories(options.dataDir().getParent());
    EmbeddedPostgres.Builder builder =
        EmbeddedPostgres.builder()
            .setDataDirectory(options.dataDir())
            .setCleanDataDirectory(true)
            .setServerConfig("listen_addresses", "127.0.0.1")
            // Durable like a deployment (the embedded defaults turn both off): WAL is written and
            // synced at every commit. full_page_writes keeps PostgreSQL's default (on) and is not
            // set here: a setting on the command line would override the ALTER SYSTEM that turns
            // it off for the lower-bound phases.
            .setServerConfig("fsync", "on")
            .setServerConfig("synchronous_commit", "on")
            // No background vacuum between the phases: its WAL would be counted as theirs. The
            // harness runs VACUUM itself where the shop's database would (after the load, after
            // the purge) and measures it.
            .setServerConfig("autovacuum", "off")
            .setServerConfig("max_wal_size", "4GB");
    try (EmbeddedPostgres postgres = builder.start()) {
      dataSource = postgres.getPostgresDatabase();
      Flyway.configure()
          .dataSource(dataSource)
          .locations("filesystem:" + options.sqlDir().resolve("postgresql").toAbsolutePath())
          .load()
          .migrate();
      header();
      Sizes orders = load(ORDERS, options.rows() / 2);
      Sizes all = load(PAYMENTS, options.rows() - options.rows() / 2);
      sizeTables(orders, all);
      Map<String, Sizes> references = references(all);
      Map<String, PhaseResult> phases = requests();
      businessSizes();
      PhaseResult purge = purge();
      PhaseResult vacuum = vacuum();
      model(orders, all, references, phases, purge, vacuum);
    }
    System.out.print(out);
  }

  // ---- the machine and the database ------------------------------------------------------------

  private void header() throws SQLException {
    line("## Capacity run");
    line("");
    try (Connection c = dataSource.getConnection();
        Statement s = c.createStatement()) {
      line("- PostgreSQL: " + one(s, "SELECT version()"));
      StringBuilder settings = new StringBuilder();
      for (String name :
          List.of(
              "shared_buffers",
              "fsync",
              "synchronous_commit",
              "full_page_writes",
              "wal_level",
              "wal_compression",
              "max_wal_size",
              "checkpoint_timeout",
              "autovacuum",
              "block_size")) {
        settings.append(name).append('=').append(one(s, "SHOW " + name)).append(' ');
      }
      line("- settings: " + settings.toString().trim());
      line("- data checksums: " + one(s, "SHOW data_checksums"));
    }
    line(
        "- rows: "
            + options.rows()
            + " ("
            + options.rows() / 2
            + " "
            + ORDERS
            + " then the rest "
            + PAYMENTS
            + "), requests per phase: "
            + options.requests());
    line("");
  }

  // ---- (1) the load: key rows as the shop writes them ----------------------------------------

  /**
   * Writes {@code count} completed keys of {@code operation} through the library's store, as the
   * shop writes them, and returns the sizes after a VACUUM ANALYZE. An orders.create key is claimed
   * in its transaction (the default, docs/idempotency.md): the completion's one INSERT ({@code
   * completeInTransaction}, attempt 1), here oldest first with creation times spread over the TTL
   * plus an hour, committed every 1,000 rows. A payments.charge key is claimed first, on its own
   * ({@code claim}: the function's INSERT), then completed ({@code complete}: an UPDATE of that
   * row), so that its row leaves the dead version a real payment leaves. The loading session turns
   * {@code synchronous_commit} off: it changes when a commit returns, not what is written.
   */
  private Sizes load(String operation, int count) throws SQLException {
    long started = System.nanoTime();
    Duration ttl = operation.equals(ORDERS) ? Duration.ofHours(24) : Duration.ofDays(7);
    // The oldest hour is already expired, as before a retention run (idempotency.retention
    // .interval, 1 h).
    Duration span = ttl.plusHours(1);
    Instant start = Instant.now().minus(span);
    try (Connection c = dataSource.getConnection()) {
      try (Statement s = c.createStatement()) {
        s.execute("SET synchronous_commit = off");
      }
      c.setAutoCommit(operation.equals(PAYMENTS));
      JdbcIdempotencyStore store = new PostgresIdempotencyStore(shared(c));
      store.encryptingBodiesWith(cipher);
      for (int i = 0; i < count; i++) {
        Key key = Key.random(operation, i);
        if (operation.equals(ORDERS)) {
          Instant created = start.plusMillis((long) ((double) span.toMillis() * i / count));
          if (!store.completeInTransaction(key.claim(created, ttl), key.response(created))) {
            throw new IllegalStateException("a loaded key was refused: " + key);
          }
          if ((i + 1) % 1_000 == 0) {
            c.commit();
          }
        } else {
          ClaimResult claim = store.claim(key.request());
          if (!claim.won()
              || !store.complete(claim.record().claimedKey(), key.response(Instant.now()))) {
            throw new IllegalStateException("a loaded payment key was refused: " + key);
          }
        }
        if ((i + 1) % 100_000 == 0) {
          System.err.printf(
              "loaded %,d %s keys in %.0f s%n",
              i + 1, operation, (System.nanoTime() - started) / 1e9);
        }
      }
      if (!c.getAutoCommit()) {
        c.commit();
      }
    }
    vacuumAnalyze("idempotency_record");
    System.err.printf(
        "load of %,d %s keys: %.0f s%n", count, operation, (System.nanoTime() - started) / 1e9);
    return Sizes.of(dataSource, "idempotency_record");
  }

  private void sizeTables(Sizes orders, Sizes all) throws SQLException {
    line("### (1, 2) Bytes per key row and per index entry");
    line("");
    line(
        "Command: `bench/capacity/run.sh`. Rows written by the library's"
            + " `PostgresIdempotencyStore` as the shop writes them (an orders.create key:"
            + " `completeInTransaction`'s INSERT; a payments.charge key: `claim`'s INSERT, then"
            + " `complete`'s UPDATE), bodies sealed with AES-256-GCM as `idempotency.body-keys`"
            + " makes them, then `VACUUM ANALYZE`. Sizes from `pg_relation_size` of each fork"
            + " and index.");
    line("");
    line("| | " + ORDERS + " only | all rows | " + PAYMENTS + " rows alone (difference) |");
    line("|---|---|---|---|");
    line(
        "| rows | "
            + fmt(orders.rows())
            + " | "
            + fmt(all.rows())
            + " | "
            + fmt(all.rows() - orders.rows())
            + " |");
    for (String part : all.parts().keySet()) {
      long o = orders.parts().getOrDefault(part, 0L);
      long a = all.parts().get(part);
      line(
          "| "
              + part
              + " | "
              + mb(o)
              + " MB, "
              + per(o, orders.rows())
              + " B/row | "
              + mb(a)
              + " MB, "
              + per(a, all.rows())
              + " B/row | "
              + per(a - o, all.rows() - orders.rows())
              + " B/row |");
    }
    line("");
    line("Index entries (`pg_class.reltuples` after the VACUUM) and bytes per entry, all rows:");
    line("");
    line("| index | entries | bytes | bytes per entry |");
    line("|---|---|---|---|");
    for (Map.Entry<String, long[]> index : all.indexes().entrySet()) {
      long entries = index.getValue()[0];
      long bytes = index.getValue()[1];
      line(
          "| "
              + index.getKey()
              + " | "
              + fmt(entries)
              + " | "
              + fmt(bytes)
              + " | "
              + (entries == 0 ? "(empty: " + bytes / 8192 + " pages)" : per(bytes, entries))
              + " |");
    }
    line("");
    line("Average stored sizes (`pg_column_size`), all rows:");
    line("");
    line("| operation | row's data (`t.*`) | response_body | response_headers | request_hash |");
    line("|---|---|---|---|---|");
    try (Connection c = dataSource.getConnection();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT operation, avg(pg_column_size(t.*)), avg(pg_column_size(response_body)),"
                    + " avg(pg_column_size(response_headers)), avg(pg_column_size(request_hash))"
                    + " FROM idempotency_record t GROUP BY operation ORDER BY operation")) {
      while (rs.next()) {
        line(
            "| "
                + rs.getString(1)
                + " | "
                + dec(rs.getDouble(2))
                + " | "
                + dec(rs.getDouble(3))
                + " | "
                + dec(rs.getDouble(4))
                + " | "
                + dec(rs.getDouble(5))
                + " |");
      }
    }
    line("");
  }

  /**
   * (2) The same rows copied three times into tables of the same definition ({@code LIKE ...
   * INCLUDING ALL}: columns, constraints, indexes): the body as it is (the copy's own packing, to
   * compare like with like), a 32-byte SHA-256 in its place (a reference into a body store), and no
   * body at all (the answer rebuilt from the business row its Location names).
   */
  private Map<String, Sizes> references(Sizes original) throws SQLException {
    Map<String, String> variants = new LinkedHashMap<>();
    variants.put("body as stored (copy)", "response_body");
    variants.put("32-byte SHA-256 instead of the body", "sha256(response_body)");
    variants.put("no body (rebuilt from the row Location names)", "NULL::bytea");
    Map<String, Sizes> sizes = new LinkedHashMap<>();
    for (Map.Entry<String, String> variant : variants.entrySet()) {
      long started = System.nanoTime();
      try (Connection c = dataSource.getConnection();
          Statement s = c.createStatement()) {
        s.execute("DROP TABLE IF EXISTS capacity_copy");
        s.execute("CREATE TABLE capacity_copy (LIKE idempotency_record INCLUDING ALL)");
        s.execute(
            "INSERT INTO capacity_copy SELECT tenant_id, operation, idempotency_key, request_hash,"
                + " status, outcome, attempt, locked_until, created_at, completed_at, expires_at,"
                + " resource_ref, response_code, response_headers, "
                + variant.getValue()
                + ", last_check, last_check_detail, last_checked_at FROM idempotency_record"
                + " ORDER BY created_at");
      }
      vacuumAnalyze("capacity_copy");
      sizes.put(variant.getKey(), Sizes.of(dataSource, "capacity_copy"));
      try (Connection c = dataSource.getConnection();
          Statement s = c.createStatement()) {
        s.execute("DROP TABLE capacity_copy");
      }
      System.err.printf(
          "copy '%s': %.0f s%n", variant.getKey(), (System.nanoTime() - started) / 1e9);
    }
    line("### (2) What storing a reference instead of the body saves");
    line("");
    line(
        "Command: `bench/capacity/run.sh`. The loaded rows copied in creation order into a table"
            + " `LIKE idempotency_record INCLUDING ALL` (same columns, constraints and indexes),"
            + " once per variant, then `VACUUM ANALYZE`; the column order is the migrations'.");
    line("");
    line(
        "| variant | heap + TOAST per row | indexes per row | total per row | total at "
            + fmt(original.rows())
            + " rows |");
    line("|---|---|---|---|---|");
    for (Map.Entry<String, Sizes> variant : sizes.entrySet()) {
      Sizes s = variant.getValue();
      line(
          "| "
              + variant.getKey()
              + " | "
              + per(s.heapAndToast(), s.rows())
              + " B | "
              + per(s.indexBytes(), s.rows())
              + " B | "
              + per(s.total(), s.rows())
              + " B | "
              + mb(s.total())
              + " MB |");
    }
    line("");
    return sizes;
  }

  // ---- (3) writes per keyed request -----------------------------------------------------------

  /** What one phase cost, from the database's counters. */
  record PhaseResult(
      String name,
      int requests,
      long rows,
      double seconds,
      long walBytes,
      long walRecords,
      long walFpi,
      long walSyncs,
      long inserted,
      long updated,
      long deleted,
      int commitsPerRequest) {

    double per(long value) {
      return (double) value / rows;
    }
  }

  /** The keys a phase wrote, for the phases that replay them or pay their orders. */
  private final List<Key> lastOrderKeys = new ArrayList<>();

  private final List<Key> lastPaymentKeys = new ArrayList<>();
  private final List<String> lastOrderIds = new ArrayList<>();

  private Map<String, PhaseResult> requests() throws Exception {
    Map<String, PhaseResult> results = new LinkedHashMap<>();
    try (Connection auto = dataSource.getConnection();
        Connection tx = dataSource.getConnection()) {
      auto.setAutoCommit(true);
      tx.setAutoCommit(false);
      JdbcIdempotencyStore outside = new PostgresIdempotencyStore(shared(auto));
      outside.encryptingBodiesWith(cipher);
      JdbcIdempotencyStore inside = new PostgresIdempotencyStore(shared(tx));
      inside.encryptingBodiesWith(cipher);
      Requests requests = new Requests(outside, inside, auto, tx);
      for (boolean fullPages : new boolean[] {true, false}) {
        setFullPageWrites(fullPages);
        String fpw = fullPages ? "" : ", full_page_writes off";
        int n = options.requests();
        results.put(
            "create, key only" + fpw,
            phase(
                "orders.create new key, key rows only" + fpw,
                n,
                1,
                auto,
                tx,
                i -> requests.create(false)));
        results.put(
            "create + business" + fpw,
            phase(
                "orders.create new key + order rows" + fpw,
                n,
                1,
                auto,
                tx,
                i -> requests.create(true)));
        results.put(
            "create replay" + fpw,
            phase("orders.create replay" + fpw, n, 0, auto, tx, i -> requests.replayCreate(i)));
        results.put(
            "payment, key only" + fpw,
            phase(
                "payments.charge new key, key rows only" + fpw,
                n,
                2,
                auto,
                tx,
                i -> requests.pay(false, i)));
        results.put(
            "payment + business" + fpw,
            phase(
                "payments.charge new key + payment rows" + fpw,
                n,
                3,
                auto,
                tx,
                i -> requests.pay(true, i)));
        results.put(
            "payment replay" + fpw,
            phase(
                "payments.charge replay (+ its timeline row)" + fpw,
                n,
                1,
                auto,
                tx,
                i -> requests.replayPayment(i)));
      }
      setFullPageWrites(true);
    }
    line("### (3) Writes per keyed request");
    line("");
    line(
        "Command: `bench/capacity/run.sh`. One thread, one request after the other, on the table"
            + " loaded above; each phase starts right after a `CHECKPOINT`. Key statements are the"
            + " library's (`PostgresIdempotencyStore`: the read first, `claimInTransaction` and"
            + " `completeInTransaction` for an order; `claim` and `complete` for a payment); the"
            + " business rows are SQL with the shop's columns (`sql/postgresql`). WAL from"
            + " `pg_current_wal_lsn()` differences; records, full-page images and WAL syncs from"
            + " `pg_stat_wal`; rows from `pg_stat_user_tables`. With `full_page_writes` on, right"
            + " after a checkpoint, most pages a request touches are logged whole: the upper bound."
            + " With it off, only the records: the lower bound. A busy primary sits between the"
            + " two, nearer the lower one the more requests share a checkpoint interval.");
    line("");
    line(
        "| phase | requests | ms per request | WAL bytes per request | WAL records | full-page"
            + " images | WAL syncs | rows inserted | updated | deleted | commits |");
    line("|---|---|---|---|---|---|---|---|---|---|---|");
    for (PhaseResult r : results.values()) {
      line(
          "| "
              + r.name()
              + " | "
              + fmt(r.requests())
              + " | "
              + dec2(r.seconds() * 1000 / r.requests())
              + " | "
              + dec(r.per(r.walBytes()))
              + " | "
              + dec2(r.per(r.walRecords()))
              + " | "
              + dec2(r.per(r.walFpi()))
              + " | "
              + dec2(r.per(r.walSyncs()))
              + " | "
              + dec2(r.per(r.inserted()))
              + " | "
              + dec2(r.per(r.updated()))
              + " | "
              + dec2(r.per(r.deleted()))
              + " | "
              + r.commitsPerRequest()
              + " |");
    }
    line("");
    line(
        "Per request; \"commits\" are the writing transactions the request commits (each waits"
            + " for its WAL sync with `synchronous_commit` on).");
    line("");
    return results;
  }

  /** One keyed request of a phase, numbered from 0. */
  interface Request {
    void run(int i) throws Exception;
  }

  private PhaseResult phase(
      String name, int n, int commitsPerRequest, Connection auto, Connection tx, Request request)
      throws Exception {
    checkpoint();
    Counters before = Counters.read(dataSource, auto, tx);
    long started = System.nanoTime();
    for (int i = 0; i < n; i++) {
      request.run(i);
    }
    double seconds = (System.nanoTime() - started) / 1e9;
    Counters after = Counters.read(dataSource, auto, tx);
    System.err.printf("phase %s: %.1f s%n", name, seconds);
    return new PhaseResult(
        name,
        n,
        n,
        seconds,
        after.lsn() - before.lsn(),
        after.walRecords() - before.walRecords(),
        after.walFpi() - before.walFpi(),
        after.walSyncs() - before.walSyncs(),
        after.inserted() - before.inserted(),
        after.updated() - before.updated(),
        after.deleted() - before.deleted(),
        commitsPerRequest);
  }

  /** The shop's keyed requests, on two connections: one outside any transaction, one inside. */
  private final class Requests {
    private final JdbcIdempotencyStore outside;
    private final JdbcIdempotencyStore inside;
    private final Connection auto;
    private final Connection tx;

    Requests(
        JdbcIdempotencyStore outside, JdbcIdempotencyStore inside, Connection auto, Connection tx) {
      this.outside = outside;
      this.inside = inside;
      this.auto = auto;
      this.tx = tx;
    }

    /**
     * A new orders.create key, the shop's default path (docs/idempotency.md, "Local operations: the
     * claim inside the transaction"): the read first, outside the transaction; then, in it, the
     * claim (an advisory lock and a read), the order's rows when {@code business}, and the
     * completion's INSERT; one commit.
     */
    void create(boolean business) throws Exception {
      if (lastOrderKeys.size() >= options.requests()) {
        lastOrderKeys.clear();
      }
      Key key = Key.random(ORDERS, lastOrderKeys.size());
      if (outside.find(key.tenant(), ORDERS, key.key()).isPresent()) {
        throw new IllegalStateException("a new key was found");
      }
      ClaimResult claim = inside.claimInTransaction(key.request(), Duration.ofSeconds(10));
      if (!claim.won()) {
        throw new IllegalStateException("a new key was not won");
      }
      if (business) {
        Business.insertOrder(tx, key);
        lastOrderIds.add(key.resourceId());
      }
      if (!inside.completeInTransaction(claim.record(), key.response(Instant.now()))) {
        throw new IllegalStateException("completion refused");
      }
      tx.commit();
      lastOrderKeys.add(key);
    }

    /** A retry of a completed orders.create key: the read first answers it; nothing is written. */
    void replayCreate(int i) {
      Key key = lastOrderKeys.get(i % lastOrderKeys.size());
      IdempotencyRecord record = outside.find(key.tenant(), ORDERS, key.key()).orElseThrow();
      if (record.status() != IdempotencyRecord.Status.COMPLETED
          || record.response().body().length == 0) {
        throw new IllegalStateException("no stored answer to replay");
      }
    }

    /**
     * A new payments.charge key (docs/payments.md): the claim commits on its own first; with {@code
     * business}, the PENDING attempt and its timeline row commit before the gateway call, then one
     * transaction records the capture (the payment, its timeline row, the order, the outbox event)
     * and completes the key. Without, the claim and the completion alone.
     */
    void pay(boolean business, int i) throws Exception {
      if (i == 0) {
        lastPaymentKeys.clear();
      }
      Key key = Key.random(PAYMENTS, i);
      ClaimResult claim = outside.claim(key.request());
      if (!claim.won()) {
        throw new IllegalStateException("a new payment key was not won");
      }
      if (business) {
        String orderId = lastOrderIds.remove(0);
        Business.startPayment(tx, key, orderId);
        tx.commit();
        Business.capturePayment(tx, key, orderId);
      }
      if (!inside.complete(claim.record().claimedKey(), key.response(Instant.now()))) {
        throw new IllegalStateException("payment completion refused");
      }
      tx.commit();
      lastPaymentKeys.add(key);
    }

    /**
     * A retry of a completed payments.charge key: the claim routine finds the row and does not win
     * it; the shop adds one CUSTOMER_RETRY timeline row (docs/payments.md, "The payment timeline").
     */
    void replayPayment(int i) throws Exception {
      Key key = lastPaymentKeys.get(i % lastPaymentKeys.size());
      ClaimResult claim = outside.claim(key.request());
      if (claim.won() || claim.record().response().body().length == 0) {
        throw new IllegalStateException("no stored answer to replay");
      }
      Business.timeline(auto, key, null, "CUSTOMER_RETRY", "customer");
    }
  }

  /**
   * The business rows the request phases wrote, per paid order: kept beyond any key's TTL (their
   * retention is the shop's), so outside the key table's model, but written by every request.
   */
  private void businessSizes() throws SQLException {
    line(
        "Business rows the phases above wrote (bytes from `pg_total_relation_size`, indexes and"
            + " TOAST included, of tables that held nothing before):");
    line("");
    line("| table | rows | bytes per row | bytes per paid order |");
    line("|---|---|---|---|");
    try (Connection c = dataSource.getConnection();
        Statement s = c.createStatement()) {
      long orders = Long.parseLong(one(s, "SELECT count(*) FROM shop_order"));
      long sum = 0;
      for (String table :
          List.of("shop_order", "order_line", "payment", "payment_timeline", "outbox_event")) {
        long rows = Long.parseLong(one(s, "SELECT count(*) FROM " + table));
        s.execute("VACUUM ANALYZE " + table);
        long bytes = Long.parseLong(one(s, "SELECT pg_total_relation_size('" + table + "')"));
        sum += bytes;
        line(
            "| "
                + table
                + " | "
                + fmt(rows)
                + " | "
                + per(bytes, rows)
                + " | "
                + per(bytes, orders)
                + " |");
      }
      line("| all | | | " + per(sum, orders) + " |");
    }
    line("");
  }

  // ---- retention ------------------------------------------------------------------------------

  /**
   * The retention run as the shop makes it (`purgeExpired` batches of 1,000, each committed on its
   * own, until one comes back short), on the rows the load left expired.
   */
  private PhaseResult purge() throws Exception {
    try (Connection auto = dataSource.getConnection()) {
      JdbcIdempotencyStore store = new PostgresIdempotencyStore(shared(auto));
      checkpoint();
      Counters before = Counters.read(dataSource, auto);
      long started = System.nanoTime();
      long deleted = 0;
      int batches = 0;
      while (true) {
        int batch = store.administration().purgeExpired(1_000);
        deleted += batch;
        batches++;
        if (batch < 1_000) {
          break;
        }
      }
      double seconds = (System.nanoTime() - started) / 1e9;
      Counters after = Counters.read(dataSource, auto);
      System.err.printf("purge of %,d rows in %d batches: %.1f s%n", deleted, batches, seconds);
      return new PhaseResult(
          "retention: purgeExpired, batches of 1,000",
          batches,
          deleted,
          seconds,
          after.lsn() - before.lsn(),
          after.walRecords() - before.walRecords(),
          after.walFpi() - before.walFpi(),
          after.walSyncs() - before.walSyncs(),
          after.inserted() - before.inserted(),
          after.updated() - before.updated(),
          after.deleted() - before.deleted(),
          1);
    }
  }

  /** The VACUUM that reclaims what the purge deleted (autovacuum's work, run here by hand). */
  private PhaseResult vacuum() throws Exception {
    try (Connection auto = dataSource.getConnection()) {
      Counters before = Counters.read(dataSource, auto);
      long started = System.nanoTime();
      try (Statement s = auto.createStatement()) {
        s.execute("VACUUM idempotency_record");
      }
      double seconds = (System.nanoTime() - started) / 1e9;
      Counters after = Counters.read(dataSource, auto);
      return new PhaseResult(
          "VACUUM after the purge",
          1,
          1,
          seconds,
          after.lsn() - before.lsn(),
          after.walRecords() - before.walRecords(),
          after.walFpi() - before.walFpi(),
          after.walSyncs() - before.walSyncs(),
          0,
          0,
          0,
          0);
    }
  }

  // ---- (4) the model --------------------------------------------------------------------------

  private void model(
      Sizes orders,
      Sizes all,
      Map<String, Sizes> references,
      Map<String, PhaseResult> phases,
      PhaseResult purge,
      PhaseResult vacuum) {
    line("### Retention, measured");
    line("");
    line("| step | rows | seconds | WAL bytes | WAL bytes per row | full-page images per row |");
    line("|---|---|---|---|---|---|");
    line(
        "| "
            + purge.name()
            + " ("
            + purge.requests()
            + " batches) | "
            + fmt(purge.rows())
            + " | "
            + dec2(purge.seconds())
            + " | "
            + fmt(purge.walBytes())
            + " | "
            + dec(purge.per(purge.walBytes()))
            + " | "
            + dec2(purge.per(purge.walFpi()))
            + " |");
    line(
        "| "
            + vacuum.name()
            + " | "
            + fmt(purge.rows())
            + " | "
            + dec2(vacuum.seconds())
            + " | "
            + fmt(vacuum.walBytes())
            + " | "
            + dec((double) vacuum.walBytes() / Math.max(1, purge.rows()))
            + " | "
            + dec2((double) vacuum.walFpi() / Math.max(1, purge.rows()))
            + " |");
    line("");

    double rate = options.ratePerSecond();
    double orderRow = (double) orders.total() / orders.rows();
    double paymentRow = (double) (all.total() - orders.total()) / (all.rows() - orders.rows());
    double deleteWal = (double) (purge.walBytes() + vacuum.walBytes()) / Math.max(1, purge.rows());
    line("### (4) The model at " + fmt((long) rate) + " new keys per second");
    line("");
    line(
        "Rows held = rate x retention; bytes = rows x the measured total per row (heap, TOAST,"
            + " every index) of a freshly loaded, vacuumed table: bloat between purge and vacuum"
            + " comes on top. WAL per day = rate x 86,400 x WAL per request, plus the purge and"
            + " its VACUUM per row deleted (every row is deleted once).");
    line("");
    line("| what | per row / request | rows held | held | per day |");
    line("|---|---|---|---|---|");
    Duration day = Duration.ofHours(24);
    Duration week = Duration.ofDays(7);
    modelRow("orders.create keys, 24 h", orderRow, rate, day);
    modelRow("payments.charge keys, 24 h", paymentRow, rate, day);
    modelRow("payments.charge keys, their real TTL of 7 days", paymentRow, rate, week);
    Sizes none = references.get("no body (rebuilt from the row Location names)");
    Sizes same = references.get("body as stored (copy)");
    double noneRow = (double) none.total() / none.rows();
    modelRow("all keys without a body (reference only), 24 h", noneRow, rate, day);
    modelRow("the first estimate's 2 KB row, 24 h", 2_000, rate, day);
    line("");
    line("| WAL | per request | per day at " + fmt((long) rate) + "/s |");
    line("|---|---|---|");
    for (String phase :
        List.of(
            "create, key only", "create + business", "payment, key only", "payment + business")) {
      PhaseResult on = phases.get(phase);
      PhaseResult off = phases.get(phase + ", full_page_writes off");
      double low = Math.min(on.per(on.walBytes()), off.per(off.walBytes()));
      double high = Math.max(on.per(on.walBytes()), off.per(off.walBytes()));
      line(
          "| "
              + phase
              + " | "
              + dec(low)
              + " to "
              + dec(high)
              + " B | "
              + dec1(CapacityModel.gb(CapacityModel.bytesPerDay(rate, low)))
              + " to "
              + dec1(CapacityModel.gb(CapacityModel.bytesPerDay(rate, high)))
              + " GB |");
    }
    line(
        "| retention (purge + VACUUM) per row deleted | "
            + dec(deleteWal)
            + " B | "
            + dec1(CapacityModel.gb(CapacityModel.bytesPerDay(rate, deleteWal)))
            + " GB |");
    line("");

    // One primary: what each assumed budget allows, for a keyed order then its payment.
    PhaseResult createLow = phases.get("create + business, full_page_writes off");
    PhaseResult createHigh = phases.get("create + business");
    PhaseResult payLow = phases.get("payment + business, full_page_writes off");
    PhaseResult payHigh = phases.get("payment + business");
    double pairRow = orderRow + paymentRow * 7;
    double pairWalLow =
        createLow.per(createLow.walBytes()) + payLow.per(payLow.walBytes()) + 2 * deleteWal;
    double pairWalHigh =
        createHigh.per(createHigh.walBytes()) + payHigh.per(payHigh.walBytes()) + 2 * deleteWal;
    double pairCommits = createHigh.commitsPerRequest() + payHigh.commitsPerRequest();
    double pairSyncs = createHigh.per(createHigh.walSyncs()) + payHigh.per(payHigh.walSyncs());
    double disk = options.diskTb() * 1e12;
    double byDisk =
        CapacityModel.rateForDisk(disk, options.diskShare(), pairRow, Duration.ofHours(24));
    double byWalLow = CapacityModel.rateFor(options.walMbPerSecond() * 1e6, pairWalHigh);
    double byWalHigh = CapacityModel.rateFor(options.walMbPerSecond() * 1e6, pairWalLow);
    double byIops = CapacityModel.rateFor(options.iops(), pairCommits);
    double holds = Math.min(byDisk, Math.min(byWalLow, byIops));
    line("### What one primary holds (assumptions, not measurements)");
    line("");
    line(
        "A paid order leaves one orders.create row for 24 h and one payments.charge row for 7"
            + " days: r paid orders per second hold r x 86,400 x (order row + 7 x payment row) = r x"
            + " 86,400 x "
            + dec(pairRow)
            + " B of key rows. Per paid order (order created, then paid, keys only purged later): "
            + dec(pairWalLow)
            + " to "
            + dec(pairWalHigh)
            + " B of WAL, "
            + dec1(pairCommits)
            + " commits ("
            + dec2(pairSyncs)
            + " WAL syncs measured, one thread).");
    line("");
    line("| budget (assumed) | paid orders per second it allows |");
    line("|---|---|");
    line(
        "| disk: "
            + dec1(options.diskTb())
            + " TB, "
            + (int) (options.diskShare() * 100)
            + "% for the key table | "
            + fmt((long) byDisk)
            + " |");
    line(
        "| WAL: "
            + dec1(options.walMbPerSecond())
            + " MB/s sustained (disk, replicas, archive) | "
            + fmt((long) byWalLow)
            + " to "
            + fmt((long) byWalHigh)
            + " |");
    line(
        "| IOPS: "
            + fmt((long) options.iops())
            + " syncs/s, one per commit (no group commit) | "
            + fmt((long) byIops)
            + " |");
    line(
        "| **one primary**, the smallest, at "
            + (int) (options.headroom() * 100)
            + "% headroom | **"
            + fmt((long) (holds * options.headroom()))
            + "** |");
    line("");
    line(
        "Primaries needed at "
            + fmt((long) rate)
            + " paid orders per second: "
            + CapacityModel.primaries(rate, holds, options.headroom())
            + ".");
    line("");
    System.err.println(
        "copy as stored vs loaded table: "
            + per(same.total(), same.rows())
            + " vs "
            + per(all.total(), all.rows())
            + " B/row");
  }

  private void modelRow(String what, double bytesPerRow, double rate, Duration retention) {
    long rows = CapacityModel.rowsHeld(rate, retention);
    line(
        "| "
            + what
            + " | "
            + dec(bytesPerRow)
            + " B | "
            + fmt(rows)
            + " | "
            + dec1(CapacityModel.gb(CapacityModel.bytesHeld(rate, retention, bytesPerRow)))
            + " GB | "
            + dec1(CapacityModel.gb(CapacityModel.bytesPerDay(rate, bytesPerRow)))
            + " GB |");
  }

  // ---- database helpers -----------------------------------------------------------------------

  private void vacuumAnalyze(String table) throws SQLException {
    try (Connection c = dataSource.getConnection();
        Statement s = c.createStatement()) {
      s.execute("VACUUM ANALYZE " + table);
    }
  }

  private void checkpoint() throws SQLException {
    try (Connection c = dataSource.getConnection();
        Statement s = c.createStatement()) {
      s.execute("CHECKPOINT");
    }
  }

  private void setFullPageWrites(boolean on) throws SQLException {
    try (Connection c = dataSource.getConnection();
        Statement s = c.createStatement()) {
      s.execute("ALTER SYSTEM SET full_page_writes = " + (on ? "on" : "off"));
      s.execute("SELECT pg_reload_conf()");
    }
    try {
      Thread.sleep(1_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try (Connection c = dataSource.getConnection();
        Statement s = c.createStatement()) {
      String now = one(s, "SHOW full_page_writes");
      if (!now.equals(on ? "on" : "off")) {
        throw new IllegalStateException("full_page_writes stayed " + now);
      }
    }
  }

  private static String one(Statement s, String sql) throws SQLException {
    try (ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getString(1);
    }
  }

  /**
   * A data source that hands out one connection and never closes it: what the store sees inside a
   * JTA transaction, where every statement runs on the transaction's connection (the library's
   * tests use the same, SharedConnection).
   */
  static DataSource shared(Connection connection) {
    Connection unclosable =
        (Connection)
            Proxy.newProxyInstance(
                Connection.class.getClassLoader(),
                new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                  if (method.getName().equals("close")) {
                    return null;
                  }
                  try {
                    return method.invoke(connection, args);
                  } catch (InvocationTargetException e) {
                    throw e.getCause();
                  }
                });
    return (DataSource)
        Proxy.newProxyInstance(
            DataSource.class.getClassLoader(),
            new Class<?>[] {DataSource.class},
            (proxy, method, args) -> {
              if (method.getName().equals("getConnection")) {
                return unclosable;
              }
              throw new UnsupportedOperationException(method.getName());
            });
  }

  /**
   * The database's counters: the WAL position, pg_stat_wal, and the rows of every user table.
   * Statistics reach the collector at most every 500 ms from each backend, at the end of a
   * transaction: the workers end one more after a pause, and the reader waits and clears its
   * snapshot, so that what the phase did is counted and nothing of the next.
   */
  record Counters(
      long lsn,
      long walRecords,
      long walFpi,
      long walSyncs,
      long inserted,
      long updated,
      long deleted) {

    static Counters read(DataSource dataSource, Connection... workers) throws Exception {
      Thread.sleep(600);
      for (Connection worker : workers) {
        try (Statement s = worker.createStatement()) {
          s.execute("SELECT 1");
        }
        if (!worker.getAutoCommit()) {
          worker.commit();
        }
      }
      Thread.sleep(700);
      try (Connection c = dataSource.getConnection();
          Statement s = c.createStatement()) {
        s.execute("SELECT pg_stat_clear_snapshot()");
        try (ResultSet rs =
            s.executeQuery(
                "SELECT (pg_current_wal_lsn() - '0/0'::pg_lsn)::bigint, w.wal_records, w.wal_fpi,"
                    + " w.wal_sync, (SELECT sum(n_tup_ins) FROM pg_stat_user_tables),"
                    + " (SELECT sum(n_tup_upd) FROM pg_stat_user_tables),"
                    + " (SELECT sum(n_tup_del) FROM pg_stat_user_tables) FROM pg_stat_wal w")) {
          rs.next();
          return new Counters(
              rs.getLong(1),
              rs.getLong(2),
              rs.getLong(3),
              rs.getLong(4),
              rs.getLong(5),
              rs.getLong(6),
              rs.getLong(7));
        }
      }
    }
  }

  /** Bytes of one table: each fork, its TOAST table and each index. */
  record Sizes(long rows, Map<String, Long> parts, Map<String, long[]> indexes) {

    long heapAndToast() {
      return parts.get("heap (main fork)")
          + parts.get("free space map + visibility map")
          + parts.get("TOAST table and its index");
    }

    long indexBytes() {
      return parts.get("indexes (pg_indexes_size)");
    }

    long total() {
      return parts.get("total (pg_total_relation_size)");
    }

    static Sizes of(DataSource dataSource, String table) throws SQLException {
      Map<String, Long> parts = new LinkedHashMap<>();
      Map<String, long[]> indexes = new LinkedHashMap<>();
      long rows;
      try (Connection c = dataSource.getConnection();
          Statement s = c.createStatement()) {
        try (ResultSet rs = s.executeQuery("SELECT count(*) FROM " + table)) {
          rs.next();
          rows = rs.getLong(1);
        }
        try (ResultSet rs =
            s.executeQuery(
                "SELECT pg_relation_size(c.oid, 'main'),"
                    + " pg_relation_size(c.oid, 'fsm') + pg_relation_size(c.oid, 'vm'),"
                    + " COALESCE(pg_total_relation_size(NULLIF(c.reltoastrelid, 0)), 0),"
                    + " pg_indexes_size(c.oid), pg_total_relation_size(c.oid)"
                    + " FROM pg_class c WHERE c.oid = '"
                    + table
                    + "'::regclass")) {
          rs.next();
          parts.put("heap (main fork)", rs.getLong(1));
          parts.put("free space map + visibility map", rs.getLong(2));
          parts.put("TOAST table and its index", rs.getLong(3));
          parts.put("indexes (pg_indexes_size)", rs.getLong(4));
          parts.put("total (pg_total_relation_size)", rs.getLong(5));
        }
        try (ResultSet rs =
            s.executeQuery(
                "SELECT i.relname, i.reltuples::bigint, pg_relation_size(i.oid)"
                    + " FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid"
                    + " WHERE x.indrelid = '"
                    + table
                    + "'::regclass ORDER BY i.relname")) {
          while (rs.next()) {
            indexes.put(rs.getString(1), new long[] {Math.max(0, rs.getLong(2)), rs.getLong(3)});
          }
        }
      }
      return new Sizes(rows, parts, indexes);
    }
  }

  // ---- the rows ---------------------------------------------------------------------------------

  /**
   * One keyed request as the shop would see it: tenant, operation, a UUID key (docs/payments.md's
   * example), the SHA-256 fingerprint in hex, the created resource's id and its 201 answer.
   */
  record Key(String tenant, String operation, String key, String fingerprint, String resourceId) {

    static Key random(String operation, int i) {
      byte[] hash = new byte[32];
      RANDOM.nextBytes(hash);
      return new Key(
          String.format(Locale.ROOT, "merchant-%03d", i % 100),
          operation,
          UUID.randomUUID().toString(),
          HEX.formatHex(hash),
          UUID.randomUUID().toString());
    }

    ClaimRequest request() {
      boolean orders = operation.equals(ORDERS);
      return new ClaimRequest(
          tenant,
          operation,
          key,
          fingerprint,
          Duration.ofSeconds(30),
          orders ? Duration.ofHours(24) : Duration.ofDays(7),
          orders);
    }

    /** The claim of attempt 1 that {@code completeInTransaction} turns into the row's INSERT. */
    IdempotencyRecord claim(Instant created, Duration ttl) {
      return new IdempotencyRecord(
          tenant,
          operation,
          key,
          fingerprint,
          IdempotencyRecord.Status.PROCESSING,
          false,
          1,
          created.plusSeconds(30),
          created,
          null,
          created.plus(ttl),
          null,
          null,
          null,
          null,
          created);
    }

    /**
     * The 201 the shop stores: Location and Content-Type (the default stored headers), the body.
     */
    StoredResponse response(Instant created) {
      Map<String, String> headers = new LinkedHashMap<>();
      String body;
      if (operation.equals(ORDERS)) {
        headers.put("Location", "/api/v1/orders/" + resourceId);
        body =
            "{\"id\":\""
                + resourceId
                + "\",\"status\":\"PENDING_PAYMENT\",\"currency\":\"VND\",\"total\":1250000,"
                + "\"merchantOrderId\":\""
                + (10_000 + RANDOM.nextInt(90_000))
                + "\",\"items\":[{\"sku\":\"SKU-"
                + (100_000 + RANDOM.nextInt(900_000))
                + "\",\"quantity\":2,\"unitPrice\":375000},{\"sku\":\"SKU-"
                + (100_000 + RANDOM.nextInt(900_000))
                + "\",\"quantity\":1,\"unitPrice\":500000}],\"createdAt\":\""
                + created
                + "\"}";
      } else {
        headers.put("Location", "/api/v1/payments/" + resourceId);
        body =
            "{\"id\":\""
                + resourceId
                + "\",\"orderId\":\""
                + UUID.randomUUID()
                + "\",\"status\":\"CAPTURED\",\"amount\":1250000,\"currency\":\"VND\","
                + "\"gatewayChargeId\":\"ch_"
                + HEX.formatHex(randomBytes(12))
                + "\"}";
      }
      headers.put("Content-Type", "application/json");
      return new StoredResponse(201, headers, body.getBytes(StandardCharsets.UTF_8));
    }
  }

  private static byte[] randomBytes(int n) {
    byte[] bytes = new byte[n];
    RANDOM.nextBytes(bytes);
    return bytes;
  }

  /**
   * The business rows of a keyed request, with the columns of sql/postgresql (V2, V3, V7, V13, V16,
   * V18). The statements are this harness's, not the shop's JPA: the rows and their indexes are the
   * shop's, the SQL that writes them may differ (see docs/scaling.md, "Capacity model").
   */
  static final class Business {

    private Business() {}

    /** The order (PENDING_PAYMENT), its two lines and its outbox event. */
    static void insertOrder(Connection c, Key key) throws SQLException {
      Timestamp now = Timestamp.from(Instant.now());
      try (PreparedStatement order =
          c.prepareStatement(
              "INSERT INTO shop_order (id, tenant_id, merchant_order_id, currency, status,"
                  + " total_amount, created_at, version) VALUES (?, ?, ?, 'VND',"
                  + " 'PENDING_PAYMENT', 1250000, ?, 1)")) {
        order.setString(1, key.resourceId());
        order.setString(2, key.tenant());
        order.setString(3, "M-" + key.key().substring(0, 18));
        order.setTimestamp(4, now);
        order.executeUpdate();
      }
      try (PreparedStatement line =
          c.prepareStatement(
              "INSERT INTO order_line (order_id, line_no, sku, quantity, unit_price)"
                  + " VALUES (?, ?, ?, ?, ?)")) {
        for (int n = 1; n <= 2; n++) {
          line.setString(1, key.resourceId());
          line.setInt(2, n);
          line.setString(3, "SKU-" + (100_000 + RANDOM.nextInt(900_000)));
          line.setInt(4, n);
          line.setLong(5, n == 1 ? 375_000 : 500_000);
          line.addBatch();
        }
        line.executeBatch();
      }
      outbox(c, key, "order", key.resourceId(), 1, "order.created");
    }

    /** The PENDING attempt and its ATTEMPT_STARTED entry, committed before the gateway call. */
    static void startPayment(Connection c, Key key, String orderId) throws SQLException {
      Timestamp now = Timestamp.from(Instant.now());
      try (PreparedStatement payment =
          c.prepareStatement(
              "INSERT INTO payment (id, tenant_id, order_id, active_order_id, amount, currency,"
                  + " payment_method, status, gateway_key, idempotency_key, idempotency_attempt,"
                  + " created_at, updated_at, version) VALUES (?, ?, ?, ?, 1250000, 'VND',"
                  + " 'pm_card_ok', 'PENDING', ?, ?, 1, ?, ?, 1)")) {
        payment.setString(1, key.resourceId());
        payment.setString(2, key.tenant());
        payment.setString(3, orderId);
        payment.setString(4, orderId);
        payment.setString(5, "gk_" + HEX.formatHex(randomBytes(32)));
        payment.setString(6, key.key());
        payment.setTimestamp(7, now);
        payment.setTimestamp(8, now);
        payment.executeUpdate();
      }
      timeline(c, key, key.resourceId(), "ATTEMPT_STARTED", "customer");
    }

    /** The capture: the payment, its CAPTURED entry, the order paid, the outbox event. */
    static void capturePayment(Connection c, Key key, String orderId) throws SQLException {
      Timestamp now = Timestamp.from(Instant.now());
      try (PreparedStatement payment =
          c.prepareStatement(
              "UPDATE payment SET status = 'CAPTURED', gateway_charge_id = ?, updated_at = ?,"
                  + " version = version + 1 WHERE id = ?")) {
        payment.setString(1, "ch_" + HEX.formatHex(randomBytes(12)));
        payment.setTimestamp(2, now);
        payment.setString(3, key.resourceId());
        payment.executeUpdate();
      }
      timeline(c, key, key.resourceId(), "CAPTURED", "shop");
      try (PreparedStatement order =
          c.prepareStatement(
              "UPDATE shop_order SET status = 'PAID', version = version + 1 WHERE id = ?")) {
        order.setString(1, orderId);
        order.executeUpdate();
      }
      outbox(c, key, "payment", key.resourceId(), 1, "payment.captured");
    }

    static void timeline(Connection c, Key key, String paymentId, String kind, String actor)
        throws SQLException {
      try (PreparedStatement entry =
          c.prepareStatement(
              "INSERT INTO payment_timeline (tenant_id, idempotency_key, payment_id, occurred_at,"
                  + " kind, detail, actor) VALUES (?, ?, ?, ?, ?, ?, ?)")) {
        entry.setString(1, key.tenant());
        entry.setString(2, key.key());
        entry.setString(3, paymentId);
        entry.setTimestamp(4, Timestamp.from(Instant.now()));
        entry.setString(5, kind);
        entry.setString(
            6, kind.equals("CAPTURED") ? "charge ch_" + HEX.formatHex(randomBytes(12)) : null);
        entry.setString(7, actor);
        entry.executeUpdate();
      }
    }

    /** One event in the outbox, with a payload of the size of an event's JSON (docs/events.md). */
    static void outbox(
        Connection c, Key key, String aggregateType, String aggregateId, long sequence, String type)
        throws SQLException {
      Timestamp now = Timestamp.from(Instant.now());
      String payload =
          "{\"specversion\":\"1.0\",\"id\":\""
              + UUID.randomUUID()
              + "\",\"source\":\"/shop\",\"type\":\""
              + type
              + "\",\"subject\":\""
              + aggregateId
              + "\",\"time\":\""
              + now.toInstant()
              + "\",\"datacontenttype\":\"application/json\",\"data\":{\"tenant\":\""
              + key.tenant()
              + "\",\"id\":\""
              + aggregateId
              + "\",\"status\":\"PENDING_PAYMENT\",\"currency\":\"VND\",\"total\":1250000}}";
      try (PreparedStatement event =
          c.prepareStatement(
              "INSERT INTO outbox_event (id, aggregate_type, aggregate_id, aggregate_sequence,"
                  + " type, tenant_id, payload, created_at, next_attempt_at)"
                  + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
        event.setString(1, UUID.randomUUID().toString());
        event.setString(2, aggregateType);
        event.setString(3, aggregateId);
        event.setLong(4, sequence);
        event.setString(5, type);
        event.setString(6, key.tenant());
        event.setString(7, payload);
        event.setTimestamp(8, now);
        event.setTimestamp(9, now);
        event.executeUpdate();
      }
    }
  }

  // ---- output -----------------------------------------------------------------------------------

  private void line(String text) {
    out.append(text).append('\n');
  }

  static String fmt(long value) {
    return String.format(Locale.ROOT, "%,d", value);
  }

  static String mb(long bytes) {
    return String.format(Locale.ROOT, "%,.1f", bytes / 1e6);
  }

  static String per(long bytes, long rows) {
    return rows == 0 ? "-" : String.format(Locale.ROOT, "%,.1f", (double) bytes / rows);
  }

  static String dec(double value) {
    return String.format(Locale.ROOT, "%,.0f", value);
  }

  static String dec1(double value) {
    return String.format(Locale.ROOT, "%,.1f", value);
  }

  static String dec2(double value) {
    return String.format(Locale.ROOT, "%,.2f", value);
  }
}
