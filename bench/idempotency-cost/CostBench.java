import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.ToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What an Idempotency-Key costs the shop, per shape and per number of concurrent connections, and
 * what the retention purge does to claims under load. A benchmark, never a test: run by
 * bench/idempotency-cost/run.sh against a shop it started on loopback (see the README beside this
 * file). JDK 17, java.net.http only (JDBC, for the purge mode's inserts, needs the PostgreSQL
 * driver on the class path).
 *
 * <p>Mode {@code cost} (default): after a warm-up, interleaved rounds (shape order and connection
 * order rotated each round) of
 *
 * <ul>
 *   <li><b>keyed</b>: POST /api/v1/orders with a fresh UUID key: 201, not replayed;
 *   <li><b>unkeyed</b>: the same without the header (the shop's comparison-only switch
 *       idempotency.operations.orders.create.mode=optional): 201;
 *   <li><b>replay</b>: keys from a pool completed during warm-up: 201, Idempotent-Replayed: true;
 *   <li><b>conflict</b>: with the sandbox gateway slow, duplicates of a payment whose first request
 *       (the owner) is still running: 409 idempotency-key-in-use with Retry-After. Only the
 *       duplicates are measured.
 * </ul>
 *
 * <p>CPU per request counts the shop's JVM and, on PostgreSQL, every postgres process of the
 * bench's postmaster (utime + stime from /proc, children that exited included via the
 * postmaster's cutime + cstime). Any unexpected status aborts the run (exit 2); transport errors
 * are counted, and more than --max-client-errors in one phase abort it too.
 *
 * <p>Mode {@code purge} (PostgreSQL only): inserts expired COMPLETED rows straight through JDBC,
 * then runs keyed creates at --purge-connections without a purge, while an operator's "purge now"
 * runs, and after it.
 */
public class CostBench {

  enum Shape {
    KEYED("keyed"),
    UNKEYED("unkeyed"),
    REPLAY("replay"),
    CONFLICT("conflict");

    final String label;

    Shape(String label) {
      this.label = label;
    }

    static Shape of(String label) {
      for (Shape s : values()) {
        if (s.label.equals(label)) {
          return s;
        }
      }
      throw fail("unknown shape " + label + " (keyed, unkeyed, replay, conflict)");
    }
  }

  static final class Options {
    String mode = "cost";
    String baseUrl = "http://127.0.0.1:9380";
    String user = "alice";
    String password = "alice-secret";
    String operator = "operator";
    String operatorPassword = "operator-secret";
    int warmupSeconds = 120;
    int warmupSegmentSeconds = 10;
    int rounds = 5;
    int roundSeconds = 15;
    int[] connections = {1, 16, 64};
    List<Shape> shapes = new ArrayList<>(List.of(Shape.values()));
    int poolSize = 1000;
    int conflictLatencyMs = 2000;
    int conflictHeadStartMs = 300;
    int conflictMarginMs = 500;
    long maxRequestsPerPhase = 5_000_000;
    int requestTimeoutSeconds = 30;
    int maxClientErrors = 10;
    long pid = -1;
    String server = "shop-bench";
    String pgData;
    String markdownOut;
    String command = "";
    String loadAtLaunch;
    String database = "?";
    // purge mode
    String jdbcUrl;
    String jdbcUser = "postgres";
    String jdbcPassword = "postgres";
    int purgeRows = 1_000_000;
    String purgeTenant = "bench-expired";
    int purgeConnections = 16;
    int purgeBaselineSeconds = 30;
    int purgeAfterSeconds = 30;
    int purgeTimeoutSeconds = 1800;

    static Options parse(String[] args) {
      Options o = new Options();
      for (int i = 0; i < args.length; i++) {
        String a = args[i];
        switch (a) {
          case "-h", "--help" -> {
            usage();
            System.exit(0);
          }
          case "--skip-unkeyed" -> {
            o.shapes.remove(Shape.UNKEYED);
            continue;
          }
          default -> {}
        }
        if (i + 1 >= args.length) {
          fail("missing value for " + a);
        }
        String v = args[++i];
        switch (a) {
          case "--mode" -> {
            if (!v.equals("cost") && !v.equals("purge")) {
              fail("--mode is cost or purge");
            }
            o.mode = v;
          }
          case "--url" -> o.baseUrl = v.endsWith("/") ? v.substring(0, v.length() - 1) : v;
          case "--user" -> o.user = v;
          case "--password" -> o.password = v;
          case "--operator" -> o.operator = v;
          case "--operator-password" -> o.operatorPassword = v;
          case "--warmup" -> o.warmupSeconds = bounded(a, v, 0, 3600);
          case "--warmup-segment" -> o.warmupSegmentSeconds = bounded(a, v, 1, 600);
          case "--rounds" -> o.rounds = bounded(a, v, 1, 50);
          case "--round-seconds" -> o.roundSeconds = bounded(a, v, 1, 600);
          case "--connections" ->
              o.connections =
                  Arrays.stream(v.split(",")).mapToInt(c -> bounded(a, c.trim(), 1, 256)).toArray();
          case "--shapes" -> {
            o.shapes = new ArrayList<>();
            for (String s : v.split(",")) {
              o.shapes.add(Shape.of(s.trim()));
            }
          }
          case "--pool" -> o.poolSize = bounded(a, v, 1, 100_000);
          case "--conflict-latency-ms" -> o.conflictLatencyMs = bounded(a, v, 500, 10_000);
          case "--conflict-head-start-ms" -> o.conflictHeadStartMs = bounded(a, v, 50, 5_000);
          case "--conflict-margin-ms" -> o.conflictMarginMs = bounded(a, v, 50, 5_000);
          case "--max-requests" -> o.maxRequestsPerPhase = bounded(a, v, 1, 100_000_000);
          case "--timeout" -> o.requestTimeoutSeconds = bounded(a, v, 1, 300);
          case "--max-client-errors" -> o.maxClientErrors = bounded(a, v, 0, 1_000_000);
          case "--pid" -> o.pid = bounded(a, v, 1, Integer.MAX_VALUE);
          case "--server" -> o.server = v;
          case "--pg-data" -> o.pgData = v;
          case "--markdown-out" -> o.markdownOut = v;
          case "--command" -> o.command = v;
          case "--load-at-launch" -> o.loadAtLaunch = v;
          case "--database" -> o.database = v;
          case "--jdbc-url" -> o.jdbcUrl = v;
          case "--jdbc-user" -> o.jdbcUser = v;
          case "--jdbc-password" -> o.jdbcPassword = v;
          case "--purge-rows" -> o.purgeRows = bounded(a, v, 1, 50_000_000);
          case "--purge-tenant" -> o.purgeTenant = v;
          case "--purge-connections" -> o.purgeConnections = bounded(a, v, 1, 256);
          case "--purge-baseline-seconds" -> o.purgeBaselineSeconds = bounded(a, v, 1, 3600);
          case "--purge-after-seconds" -> o.purgeAfterSeconds = bounded(a, v, 0, 3600);
          case "--purge-timeout" -> o.purgeTimeoutSeconds = bounded(a, v, 10, 7200);
          default -> fail("unknown option " + a + " (try --help)");
        }
      }
      if (o.conflictHeadStartMs + o.conflictMarginMs + 200 > o.conflictLatencyMs) {
        fail("--conflict-latency-ms must exceed head start + margin + 200 ms");
      }
      if (o.mode.equals("purge") && o.jdbcUrl == null) {
        fail("--mode purge needs --jdbc-url (PostgreSQL only)");
      }
      if (o.shapes.isEmpty()) {
        fail("no shape left to run");
      }
      return o;
    }

    int maxConnections() {
      int max = purgeConnections;
      for (int c : connections) {
        max = Math.max(max, c);
      }
      return max;
    }

    static int bounded(String name, String value, int min, int max) {
      int v;
      try {
        v = Integer.parseInt(value);
      } catch (NumberFormatException e) {
        throw fail(name + " needs a number, not " + value);
      }
      if (v < min || v > max) {
        fail(name + " must be within " + min + ".." + max);
      }
      return v;
    }

    static void usage() {
      System.out.println(
          """
          java [-cp postgresql.jar] bench/idempotency-cost/CostBench.java [options]
          (normally started by bench/idempotency-cost/run.sh, which passes the right ones)
            --mode cost|purge          cost (default): the shapes below; purge: retention under load
            --url URL                  the shop, loopback only (http://127.0.0.1:9380)
            --warmup S                 warm-up seconds (120), in segments of --warmup-segment S (10)
            --rounds N                 interleaved rounds (5)
            --round-seconds S          seconds per shape and connection count per round (15)
            --connections LIST         concurrent connections (1,16,64)
            --shapes LIST              keyed,unkeyed,replay,conflict (all)
            --skip-unkeyed             leave the unkeyed shape out (a shop without the switch)
            --pool N                   completed keys for replay (1000)
            --conflict-latency-ms MS   sandbox latency while the owner runs (2000)
            --conflict-head-start-ms   the owner's head start before duplicates (300)
            --conflict-margin-ms MS    duplicates stop this long before the owner ends (500)
            --timeout S                per-request timeout (30)
            --max-client-errors N      transport errors tolerated per phase (10)
            --max-requests N           cap per phase (5000000)
            --server NAME              Liberty server name to find the shop JVM (shop-bench)
            --pid PID                  the shop JVM, instead of finding it
            --pg-data DIR              PostgreSQL data dir: count its processes' CPU too
            --markdown-out FILE        write the result here
            --command TEXT, --database NAME, --load-at-launch TEXT   for the report
            --user/--password, --operator/--operator-password       (alice, operator)
          purge mode (PostgreSQL only):
            --jdbc-url URL --jdbc-user U --jdbc-password P
            --purge-rows N (1000000) --purge-tenant T (bench-expired)
            --purge-connections N (16) --purge-baseline-seconds S (30)
            --purge-after-seconds S (30) --purge-timeout S (1800)
          """);
    }
  }

  /** One measured interval of one shape at one connection count. */
  record PhaseResult(
      Shape shape,
      int connections,
      String label,
      long requests,
      long clientErrors,
      long wallNanos,
      long serverTicks,
      long clientTicks,
      long[] sortedLatencyNanos,
      int owners,
      long lateDuplicates) {

    double requestsPerSecond() {
      return requests / (wallNanos / 1e9);
    }

    double serverCpuMicrosPerRequest() {
      return requests == 0 ? Double.NaN : ticksToMicros(serverTicks) / requests;
    }

    double clientCpuMicrosPerRequest() {
      return requests == 0 ? Double.NaN : ticksToMicros(clientTicks) / requests;
    }

    double serverCoresBusy() {
      return ticksToMicros(serverTicks) / (wallNanos / 1e3);
    }

    double meanMillis() {
      if (sortedLatencyNanos.length == 0) {
        return Double.NaN;
      }
      double sum = 0;
      for (long v : sortedLatencyNanos) {
        sum += v;
      }
      return sum / sortedLatencyNanos.length / 1e6;
    }

    double maxMillis() {
      return sortedLatencyNanos.length == 0
          ? Double.NaN
          : sortedLatencyNanos[sortedLatencyNanos.length - 1] / 1e6;
    }

    double percentileMillis(double p) {
      if (sortedLatencyNanos.length == 0) {
        return Double.NaN;
      }
      int rank = (int) Math.ceil(p / 100.0 * sortedLatencyNanos.length);
      return sortedLatencyNanos[Math.max(0, Math.min(rank, sortedLatencyNanos.length) - 1)] / 1e6;
    }
  }

  record PooledKey(String key, String body) {}

  /** A payment whose first request runs at the slow gateway; duplicates go in its window. */
  record Owner(String key, String orderId, long sent, long activeFrom, long activeUntil) {}

  static final Pattern ORDER_ID = Pattern.compile("\"id\"\\s*:\\s*\"([^\"]+)\"");
  static final String ORDER_BODY =
      "{\"currency\":\"VND\",\"items\":[{\"sku\":\"S-1\",\"quantity\":1,\"unitPrice\":1000}]}";
  static final String PAYMENT_BODY =
      "{\"amount\":1000,\"currency\":\"VND\",\"paymentMethod\":\"pm_card_ok\"}";
  static long clockTicksPerSecond = 100;

  final Options options;
  final String authorization;
  final String operatorAuthorization;
  final long shopPid;
  final long postmasterPid;
  final HttpClient[] clients;
  final HttpClient ownerClient;
  final List<PooledKey> pool = new ArrayList<>();
  final AtomicLong roundRobin = new AtomicLong();

  CostBench(Options options, long shopPid, long postmasterPid) {
    this.options = options;
    this.shopPid = shopPid;
    this.postmasterPid = postmasterPid;
    this.authorization = basic(options.user, options.password);
    this.operatorAuthorization = basic(options.operator, options.operatorPassword);
    // One client per connection, HTTP/1.1: each keeps one keep-alive connection.
    this.clients = new HttpClient[options.maxConnections()];
    for (int i = 0; i < clients.length; i++) {
      clients[i] = newClient();
    }
    this.ownerClient = newClient();
  }

  static HttpClient newClient() {
    return HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5))
        .followRedirects(HttpClient.Redirect.NEVER)
        .build();
  }

  static String basic(String user, String password) {
    return "Basic "
        + Base64.getEncoder()
            .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
  }

  public static void main(String[] args) throws Exception {
    Options options = Options.parse(args);
    requireLoopback(options.baseUrl);
    if (options.jdbcUrl != null) {
      requireLoopbackJdbc(options.jdbcUrl);
    }
    clockTicksPerSecond = clockTicks();
    long pid = options.pid > 0 ? options.pid : findShopPid(options.server);
    long postmaster = options.pgData == null ? -1 : findPostmaster(options.pgData);
    CostBench bench = new CostBench(options, pid, postmaster);
    startWatchdog(bench.plannedSeconds() + 900);
    if (options.mode.equals("purge")) {
      bench.runPurge();
    } else {
      bench.runCost();
    }
    System.exit(0);
  }

  long plannedSeconds() {
    if (options.mode.equals("purge")) {
      return options.warmupSeconds
          + options.purgeBaselineSeconds
          + options.purgeAfterSeconds
          + options.purgeTimeoutSeconds
          + 600;
    }
    return options.warmupSeconds
        + (long) options.rounds
            * options.shapes.size()
            * options.connections.length
            * (options.roundSeconds + 5);
  }

  // ---- mode cost ------------------------------------------------------------------------------

  void runCost() throws Exception {
    String loadStart = loadAverage();
    String dateStart = dateU();
    System.out.printf(
        Locale.ROOT,
        "CostBench %s on %s: shop pid %d, postmaster %s; shapes %s, connections %s; warm-up %d s;"
            + " %d rounds x %d s; planned about %d s%n",
        dateStart,
        options.baseUrl,
        shopPid,
        postmasterPid > 0 ? Long.toString(postmasterPid) : "none (H2 in the JVM)",
        options.shapes.stream().map(s -> s.label).toList(),
        Arrays.toString(options.connections),
        options.warmupSeconds,
        options.rounds,
        options.roundSeconds,
        plannedSeconds());
    requireHealthy();
    resetFaults();
    if (options.shapes.contains(Shape.UNKEYED)) {
      probeUnkeyed();
    }

    long warmupDeadline = System.nanoTime() + options.warmupSeconds * 1_000_000_000L;
    if (options.shapes.contains(Shape.REPLAY)) {
      buildPool();
    }
    if (options.shapes.contains(Shape.CONFLICT)) {
      warmPayments();
    }
    warmUp(warmupDeadline);

    List<PhaseResult> results = new ArrayList<>();
    int nShapes = options.shapes.size();
    int nConns = options.connections.length;
    for (int round = 0; round < options.rounds; round++) {
      for (int s = 0; s < nShapes; s++) {
        Shape shape = options.shapes.get((s + round) % nShapes);
        for (int c = 0; c < nConns; c++) {
          int conns = options.connections[(c + round) % nConns];
          PhaseResult r = runPhase(shape, conns, options.roundSeconds * 1_000_000_000L);
          results.add(r);
          print("round " + (round + 1), r);
        }
      }
    }
    String loadEnd = loadAverage();
    String dateEnd = dateU();
    String memory = shopMemory();
    System.out.println(memory);
    String markdown = costReport(results, dateStart, dateEnd, loadStart, loadEnd, memory);
    System.out.println();
    System.out.println(markdown);
    if (options.markdownOut != null) {
      Files.writeString(Path.of(options.markdownOut), markdown);
      System.out.println("written to " + options.markdownOut);
    }
  }

  void probeUnkeyed() throws IOException {
    HttpResponse<byte[]> r = send(0, createRequest(null, ORDER_BODY));
    if (r.statusCode() == 400 && text(r).contains("idempotency-key-missing")) {
      throw abort(
          "the shop answers an unkeyed create with 400 idempotency-key-missing: this build has"
              + " no idempotency.operations.orders.create.mode=optional switch (or it is not set);"
              + " pass --skip-unkeyed to measure the other shapes");
    }
    expect(r, 201, false, "unkeyed probe");
  }

  void buildPool() throws Exception {
    long t0 = System.nanoTime();
    int n = Math.min(16, clients.length);
    PooledKey[][] slices = new PooledKey[n][];
    AtomicReference<Exception> failure = new AtomicReference<>();
    Thread[] workers = new Thread[n];
    for (int w = 0; w < n; w++) {
      int worker = w;
      int from = options.poolSize * w / n;
      int to = options.poolSize * (w + 1) / n;
      slices[w] = new PooledKey[to - from];
      workers[w] =
          new Thread(
              () -> {
                try {
                  for (int i = 0; i < to - from; i++) {
                    String key = UUID.randomUUID().toString();
                    HttpResponse<byte[]> r = send(worker, createRequest(key, ORDER_BODY));
                    expect(r, 201, false, "pool");
                    slices[worker][i] = new PooledKey(key, ORDER_BODY);
                  }
                } catch (Exception e) {
                  failure.compareAndSet(null, e);
                }
              },
              "pool-" + w);
      workers[w].start();
    }
    for (Thread t : workers) {
      t.join();
    }
    if (failure.get() != null) {
      throw abort("building the replay pool failed: " + failure.get().getMessage());
    }
    for (PooledKey[] slice : slices) {
      pool.addAll(Arrays.asList(slice));
    }
    expect(send(0, createRequest(pool.get(0).key(), pool.get(0).body())), 201, true, "pool check");
    System.out.printf(
        Locale.ROOT, "pool: %d completed keys in %.1f s%n", pool.size(), (System.nanoTime() - t0) / 1e9);
  }

  /**
   * The first payments of a fresh server are slow (the gateway's REST client, cold code: 3.3 s
   * seen for the first one): with the sandbox slow on top, an owner would outlast the gateway
   * read timeout and end 504. So a few payments at full speed first, one at a time.
   */
  void warmPayments() throws Exception {
    long t0 = System.nanoTime();
    for (int i = 0; i < 20; i++) {
      String orderId = newOrder();
      HttpResponse<byte[]> r =
          send(0, paymentRequest(orderId, UUID.randomUUID().toString(), 60));
      expect(r, 201, false, "warm-up payment");
    }
    System.out.printf(
        Locale.ROOT, "payments warmed up: 20 in %.1f s%n", (System.nanoTime() - t0) / 1e9);
  }

  String newOrder() throws IOException {
    HttpResponse<byte[]> r = send(0, createRequest(UUID.randomUUID().toString(), ORDER_BODY));
    expect(r, 201, false, "order for a payment");
    Matcher m = ORDER_ID.matcher(text(r));
    if (!m.find()) {
      throw abort("no order id in " + text(r));
    }
    return m.group(1);
  }

  void warmUp(long deadline) throws Exception {
    int segment = 0;
    while (true) {
      long left = deadline - System.nanoTime();
      if (left < 2_000_000_000L) {
        break;
      }
      int i = segment++;
      Shape shape = options.shapes.get(i % options.shapes.size());
      int conns =
          options.connections[(i / options.shapes.size()) % options.connections.length];
      long length = Math.min(left, options.warmupSegmentSeconds * 1_000_000_000L);
      print("warm-up", runPhase(shape, conns, length));
    }
  }

  void print(String where, PhaseResult r) {
    System.out.printf(
        Locale.ROOT,
        "%-8s %-8s c=%-3d %8.1f req/s  p50 %7.2f  p99 %7.2f  mean %7.2f ms  CPU %6.0f us/req"
            + " (%.2f cores)  client %5.0f us/req  n=%d%s  client errors %d%n",
        where,
        r.shape().label,
        r.connections(),
        r.requestsPerSecond(),
        r.percentileMillis(50),
        r.percentileMillis(99),
        r.meanMillis(),
        r.serverCpuMicrosPerRequest(),
        r.serverCoresBusy(),
        r.clientCpuMicrosPerRequest(),
        r.requests(),
        r.owners() > 0
            ? " (owners " + r.owners() + ", late duplicates " + r.lateDuplicates() + ")"
            : "",
        r.clientErrors());
  }

  // ---- requests -------------------------------------------------------------------------------

  HttpRequest createRequest(String key, String body) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(options.baseUrl + "/api/v1/orders"))
            .timeout(Duration.ofSeconds(options.requestTimeoutSeconds))
            .header("Authorization", authorization)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (key != null) {
      b.header("Idempotency-Key", key);
    }
    return b.build();
  }

  HttpRequest paymentRequest(String orderId, String key, int timeoutSeconds) {
    return HttpRequest.newBuilder(
            URI.create(options.baseUrl + "/api/v1/orders/" + orderId + "/payments"))
        .timeout(Duration.ofSeconds(timeoutSeconds))
        .header("Authorization", authorization)
        .header("Content-Type", "application/json")
        .header("Accept", "application/json")
        .header("Idempotency-Key", key)
        .POST(HttpRequest.BodyPublishers.ofString(PAYMENT_BODY))
        .build();
  }

  HttpRequest requestFor(Shape shape) {
    return switch (shape) {
      case KEYED -> createRequest(UUID.randomUUID().toString(), ORDER_BODY);
      case UNKEYED -> createRequest(null, ORDER_BODY);
      case REPLAY -> {
        PooledKey k = pool.get((int) (roundRobin.getAndIncrement() % pool.size()));
        yield createRequest(k.key(), k.body());
      }
      case CONFLICT -> throw new IllegalStateException("conflict has its own loop");
    };
  }

  void check(Shape shape, HttpResponse<byte[]> r) {
    switch (shape) {
      case KEYED -> expect(r, 201, false, "keyed create");
      case UNKEYED -> expect(r, 201, false, "unkeyed create");
      case REPLAY -> expect(r, 201, true, "replay");
      case CONFLICT -> {
        expect(r, 409, false, "duplicate while the owner runs");
        String body = text(r);
        if (!body.contains("idempotency-key-in-use")) {
          throw wrong(r, "409 without idempotency-key-in-use");
        }
        if (r.headers().firstValue("Retry-After").isEmpty()) {
          throw wrong(r, "409 without Retry-After");
        }
      }
    }
  }

  HttpResponse<byte[]> send(int worker, HttpRequest request) throws IOException {
    return send(clients[worker], request);
  }

  static HttpResponse<byte[]> send(HttpClient client, HttpRequest request) throws IOException {
    try {
      return client.send(request, HttpResponse.BodyHandlers.ofByteArray());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  /** A wrong answer: never counted, always fatal. */
  static final class WrongAnswer extends RuntimeException {
    WrongAnswer(String message) {
      super(message);
    }
  }

  static void expect(HttpResponse<byte[]> r, int status, boolean replayed, String what) {
    boolean flagged = r.headers().firstValue("Idempotent-Replayed").orElse("").equals("true");
    if (r.statusCode() != status || flagged != replayed) {
      throw wrong(
          r,
          what
              + ": expected "
              + status
              + (replayed ? " replayed" : " not replayed")
              + ", got "
              + r.statusCode()
              + (flagged ? " replayed" : ""));
    }
  }

  static WrongAnswer wrong(HttpResponse<byte[]> r, String message) {
    String body = text(r);
    return new WrongAnswer(
        message
            + " ("
            + r.request().method()
            + " "
            + r.request().uri()
            + "): "
            + body.substring(0, Math.min(300, body.length())));
  }

  static String text(HttpResponse<byte[]> r) {
    return new String(r.body(), StandardCharsets.UTF_8);
  }

  // ---- phases ---------------------------------------------------------------------------------

  /** Per-worker latencies. */
  static final class LatencyLog {
    long[] values = new long[4096];
    int size;

    void add(long v) {
      if (size == values.length) {
        values = Arrays.copyOf(values, size * 2);
      }
      values[size++] = v;
    }
  }

  PhaseResult runPhase(Shape shape, int conns, long lengthNanos) throws Exception {
    if (shape == Shape.CONFLICT) {
      return runConflictPhase(conns, lengthNanos);
    }
    return runLoad(shape, conns, lengthNanos, shape.label, null);
  }

  /**
   * Runs {@code conns} workers of one shape until the deadline (or {@code until} completes), and
   * measures CPU over exactly that interval. With a window, only requests started inside it are
   * recorded (the purge mode).
   */
  PhaseResult runLoad(
      Shape shape, int conns, long lengthNanos, String label, Window window) throws Exception {
    LatencyLog[] logs = new LatencyLog[conns];
    AtomicLong issued = new AtomicLong();
    AtomicLong clientErrors = new AtomicLong();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<String> wrong = new AtomicReference<>();
    AtomicReference<String> firstClientError = new AtomicReference<>();
    CountDownLatch ready = new CountDownLatch(conns);
    CountDownLatch go = new CountDownLatch(1);
    long[] deadline = new long[1];
    Thread[] workers = new Thread[conns];
    for (int w = 0; w < conns; w++) {
      int worker = w;
      logs[w] = new LatencyLog();
      workers[w] =
          new Thread(
              () -> {
                ready.countDown();
                try {
                  go.await();
                } catch (InterruptedException e) {
                  return;
                }
                while (!stop.get()
                    && (window != null ? !window.closed() : System.nanoTime() < deadline[0])
                    && issued.incrementAndGet() <= options.maxRequestsPerPhase) {
                  HttpRequest request = requestFor(shape);
                  long t0 = System.nanoTime();
                  try {
                    HttpResponse<byte[]> response = send(worker, request);
                    long latency = System.nanoTime() - t0;
                    check(shape, response);
                    if (window == null || window.contains(t0)) {
                      logs[worker].add(latency);
                    }
                  } catch (WrongAnswer e) {
                    wrong.compareAndSet(null, e.getMessage());
                    stop.set(true);
                  } catch (IOException e) {
                    firstClientError.compareAndSet(null, e.toString());
                    if (clientErrors.incrementAndGet() > options.maxClientErrors) {
                      stop.set(true);
                    }
                  }
                }
              },
              label + "-" + w);
      workers[w].start();
    }
    ready.await();
    long serverBefore = serverTicks();
    long clientBefore = cpuTicks(ProcessHandle.current().pid());
    long start = System.nanoTime();
    deadline[0] = start + lengthNanos;
    if (window != null) {
      window.start(start);
    }
    go.countDown();
    for (Thread t : workers) {
      t.join();
    }
    long wall = System.nanoTime() - start;
    long serverCpu = serverTicks() - serverBefore;
    long clientCpu = cpuTicks(ProcessHandle.current().pid()) - clientBefore;
    checkPhase(label, conns, wrong.get(), clientErrors.get(), firstClientError.get());
    if (window != null) {
      wall = window.lengthNanos();
      if (window.ticksAtOpen >= 0 && window.ticksAtClose >= 0) {
        serverCpu = window.ticksAtClose - window.ticksAtOpen;
      }
    }
    long[] latencies = merge(logs);
    return new PhaseResult(
        shape,
        conns,
        label,
        latencies.length,
        clientErrors.get(),
        wall,
        serverCpu,
        clientCpu,
        latencies,
        0,
        0);
  }

  void checkPhase(String label, int conns, String wrong, long clientErrors, String firstClient) {
    if (wrong != null) {
      throw abort("WRONG ANSWER in " + label + " at " + conns + " connections: " + wrong);
    }
    if (clientErrors > options.maxClientErrors) {
      throw abort(
          clientErrors
              + " client errors in "
              + label
              + " at "
              + conns
              + " connections (more than --max-client-errors "
              + options.maxClientErrors
              + "); first: "
              + firstClient);
    }
    if (clientErrors > 0) {
      System.out.println(
          "  " + clientErrors + " client errors in " + label + "; first: " + firstClient);
    }
  }

  static long[] merge(LatencyLog[] logs) {
    int n = 0;
    for (LatencyLog log : logs) {
      n += log.size;
    }
    long[] all = new long[n];
    int at = 0;
    for (LatencyLog log : logs) {
      System.arraycopy(log.values, 0, all, at, log.size);
      at += log.size;
    }
    Arrays.sort(all);
    return all;
  }

  /**
   * The 409 shape: the sandbox made slow, a new owner payment every (latency - head start -
   * margin) so that one owner is always inside its window [start + head start, start + latency -
   * margin], and {@code conns} workers sending duplicates of the current owner's key. Only the
   * duplicates are measured; CPU includes the owners' (a few requests). Every owner must end 201.
   */
  PhaseResult runConflictPhase(int conns, long lengthNanos) throws Exception {
    long latency = options.conflictLatencyMs * 1_000_000L;
    long headStart = options.conflictHeadStartMs * 1_000_000L;
    long margin = options.conflictMarginMs * 1_000_000L;
    long step = latency - headStart - margin;
    int ownersNeeded = (int) (lengthNanos / step) + 2;
    // The orders to pay, created before the measured interval.
    List<String> orders = new ArrayList<>();
    for (int i = 0; i < ownersNeeded; i++) {
      orders.add(newOrder());
    }
    setFaults("{\"latencyMs\":" + options.conflictLatencyMs + "}");
    try {
      AtomicReference<Owner> current = new AtomicReference<>();
      AtomicBoolean stop = new AtomicBoolean();
      AtomicReference<String> wrong = new AtomicReference<>();
      AtomicReference<String> firstClientError = new AtomicReference<>();
      AtomicLong clientErrors = new AtomicLong();
      AtomicLong issued = new AtomicLong();
      AtomicLong late = new AtomicLong();
      LatencyLog[] logs = new LatencyLog[conns];
      CountDownLatch ready = new CountDownLatch(conns);
      CountDownLatch go = new CountDownLatch(1);
      long[] deadline = new long[1];
      Thread[] workers = new Thread[conns];
      for (int w = 0; w < conns; w++) {
        int worker = w;
        logs[w] = new LatencyLog();
        workers[w] =
            new Thread(
                () -> {
                  ready.countDown();
                  try {
                    go.await();
                    while (!stop.get()
                        && System.nanoTime() < deadline[0]
                        && issued.get() < options.maxRequestsPerPhase) {
                      Owner o = current.get();
                      long now = System.nanoTime();
                      if (o == null || now < o.activeFrom() || now >= o.activeUntil()) {
                        Thread.sleep(1);
                        continue;
                      }
                      issued.incrementAndGet();
                      HttpRequest request =
                          paymentRequest(o.orderId(), o.key(), options.requestTimeoutSeconds);
                      long t0 = System.nanoTime();
                      try {
                        HttpResponse<byte[]> response = send(worker, request);
                        long answered = System.nanoTime();
                        if (response.statusCode() == 201
                            && response.headers().firstValue("Idempotent-Replayed").orElse("")
                                .equals("true")
                            && answered >= o.sent() + latency) {
                          // Sent inside the window but answered once the owner could have
                          // finished (the gateway holds it for the whole latency): a replay is
                          // then right. Queued too long; counted, not measured. A replay before
                          // that moment, or any other answer but the 409, is wrong.
                          late.incrementAndGet();
                          continue;
                        }
                        check(Shape.CONFLICT, response);
                        logs[worker].add(answered - t0);
                      } catch (WrongAnswer e) {
                        wrong.compareAndSet(null, e.getMessage());
                        stop.set(true);
                      } catch (IOException e) {
                        firstClientError.compareAndSet(null, e.toString());
                        if (clientErrors.incrementAndGet() > options.maxClientErrors) {
                          stop.set(true);
                        }
                      }
                    }
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                },
                "conflict-" + w);
        workers[w].start();
      }
      ready.await();
      List<CompletableFuture<HttpResponse<byte[]>>> owners = new ArrayList<>();
      long serverBefore = serverTicks();
      long clientBefore = cpuTicks(ProcessHandle.current().pid());
      long start = System.nanoTime();
      deadline[0] = start + lengthNanos;
      go.countDown();
      // The owners: one every step; each is published once its claim is seen and its head start
      // has passed.
      int i = 0;
      int unclaimed = 0;
      while (!stop.get() && i < orders.size()) {
        long ownerStart = start + i * step;
        if (ownerStart >= deadline[0]) {
          break;
        }
        sleepUntil(ownerStart);
        String key = UUID.randomUUID().toString();
        String orderId = orders.get(i);
        long sent = System.nanoTime();
        owners.add(
            ownerClient.sendAsync(
                paymentRequest(orderId, key, options.requestTimeoutSeconds + 20),
                HttpResponse.BodyHandlers.ofByteArray()));
        Owner owner = new Owner(key, orderId, sent, sent + headStart, sent + latency - margin);
        // Duplicates only once the owner's claim is committed: under load the owner itself may
        // queue longer than its head start, and a duplicate claiming first would become the owner.
        if (awaitClaim(key, owner.activeUntil() - 100_000_000L)) {
          sleepUntil(owner.activeFrom());
          current.set(owner);
        } else {
          unclaimed++;
        }
        i++;
      }
      for (Thread t : workers) {
        t.join();
      }
      long wall = System.nanoTime() - start;
      // A wrong duplicate first: it may be why an owner failed.
      checkPhase("conflict", conns, wrong.get(), clientErrors.get(), firstClientError.get());
      // The owners' answers count in the CPU (they are part of the scenario), not in latency.
      for (CompletableFuture<HttpResponse<byte[]>> f : owners) {
        HttpResponse<byte[]> r;
        try {
          r = f.get();
        } catch (Exception e) {
          throw abort("an owner payment failed: " + e);
        }
        try {
          expect(r, 201, false, "owner payment");
        } catch (WrongAnswer e) {
          throw abort("WRONG ANSWER for an owner payment: " + e.getMessage());
        }
      }
      long serverCpu = serverTicks() - serverBefore;
      long clientCpu = cpuTicks(ProcessHandle.current().pid()) - clientBefore;
      if (unclaimed > 0) {
        System.out.println(
            "  " + unclaimed + " owners not seen claiming in time: no duplicates sent for them");
      }
      long[] latencies = merge(logs);
      return new PhaseResult(
          Shape.CONFLICT,
          conns,
          "conflict",
          latencies.length,
          clientErrors.get(),
          wall,
          serverCpu,
          clientCpu,
          latencies,
          owners.size(),
          late.get());
    } finally {
      resetFaults();
    }
  }

  /** Polls the operator's key lookup until the owner's key exists (its claim committed). */
  boolean awaitClaim(String key, long until) throws IOException, InterruptedException {
    HttpRequest lookup =
        HttpRequest.newBuilder(
                URI.create(
                    options.baseUrl
                        + "/api/v1/admin/keys/"
                        + options.user
                        + "/payments.charge/"
                        + key))
            .timeout(Duration.ofSeconds(10))
            .header("Authorization", operatorAuthorization)
            .header("Accept", "application/json")
            .GET()
            .build();
    while (System.nanoTime() < until) {
      HttpResponse<byte[]> r = send(ownerClient, lookup);
      if (r.statusCode() == 200) {
        return true;
      }
      if (r.statusCode() != 404) {
        throw abort("key lookup answered " + r.statusCode() + ": " + text(r));
      }
      Thread.sleep(10);
    }
    return false;
  }

  static void sleepUntil(long nanoTime) throws InterruptedException {
    long left;
    while ((left = nanoTime - System.nanoTime()) > 0) {
      Thread.sleep(Math.max(1, left / 1_000_000), 0);
    }
  }

  void setFaults(String json) throws IOException {
    HttpResponse<byte[]> r =
        send(
            0,
            HttpRequest.newBuilder(URI.create(options.baseUrl + "/gateway/v1/faults"))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(json))
                .build());
    if (r.statusCode() / 100 != 2) {
      throw abort("PUT /gateway/v1/faults answered " + r.statusCode() + ": " + text(r));
    }
  }

  void resetFaults() throws IOException {
    HttpResponse<byte[]> r =
        send(
            0,
            HttpRequest.newBuilder(URI.create(options.baseUrl + "/gateway/v1/faults"))
                .timeout(Duration.ofSeconds(10))
                .DELETE()
                .build());
    if (r.statusCode() / 100 != 2) {
      throw abort("DELETE /gateway/v1/faults answered " + r.statusCode() + ": " + text(r));
    }
  }

  void requireHealthy() throws IOException {
    HttpResponse<byte[]> r =
        send(
            0,
            HttpRequest.newBuilder(URI.create(options.baseUrl + "/health"))
                .timeout(Duration.ofSeconds(10))
                .GET()
                .build());
    if (r.statusCode() != 200) {
      throw abort("GET /health answered " + r.statusCode() + ": " + text(r));
    }
  }

  // ---- mode purge -----------------------------------------------------------------------------

  /** Requests started between the purge's request and its answer are the ones measured. */
  static final class Window {
    volatile long opened = Long.MAX_VALUE;
    volatile long closedAt = Long.MAX_VALUE;
    volatile boolean closed;
    volatile long loadStart;
    // Server CPU ticks when the purge was sent and answered (an open-ended window only).
    volatile long ticksAtOpen = -1;
    volatile long ticksAtClose = -1;
    final long fixedLength;

    Window(long fixedLength) {
      this.fixedLength = fixedLength;
    }

    /** Called before the workers start; a fixed window opens and closes by itself. */
    void start(long nanos) {
      if (fixedLength > 0) {
        opened = nanos;
        closedAt = nanos + fixedLength;
      }
      loadStart = nanos;
    }

    boolean closed() {
      if (fixedLength > 0 && System.nanoTime() >= closedAt) {
        closed = true;
      }
      return closed;
    }

    boolean contains(long t0) {
      return t0 >= opened && t0 <= closedAt;
    }

    long lengthNanos() {
      long end = closedAt == Long.MAX_VALUE ? System.nanoTime() : closedAt;
      return end - opened;
    }
  }

  void runPurge() throws Exception {
    String loadStart = loadAverage();
    String dateStart = dateU();
    System.out.printf(
        Locale.ROOT,
        "CostBench purge %s on %s: shop pid %d, postmaster %d; %d expired rows for tenant %s;"
            + " keyed creates at %d connections%n",
        dateStart,
        options.baseUrl,
        shopPid,
        postmasterPid,
        options.purgeRows,
        options.purgeTenant,
        options.purgeConnections);
    requireHealthy();
    resetFaults();
    if (options.purgeTenant.equals(options.user)) {
      throw fail("--purge-tenant must differ from the benchmark's tenant " + options.user);
    }

    // The expired rows, in one statement; then statistics and a checkpoint, so that neither the
    // analyze nor the checkpoint of the insert lands in a measured phase.
    long t0 = System.nanoTime();
    long inserted;
    try (Connection c =
            DriverManager.getConnection(options.jdbcUrl, options.jdbcUser, options.jdbcPassword);
        Statement s = c.createStatement()) {
      inserted =
          s.executeUpdate(
              "INSERT INTO idempotency_record (tenant_id, operation, idempotency_key,"
                  + " request_hash, status, outcome, attempt, locked_until, created_at,"
                  + " completed_at, expires_at, resource_ref, response_code, response_headers,"
                  + " response_body)"
                  + " SELECT '"
                  + options.purgeTenant.replace("'", "''")
                  + "', 'orders.create', 'expired-' || g,"
                  + " md5(g::text) || md5((g + 1)::text), 'COMPLETED', NULL, 1,"
                  + " now() - interval '2 days', now() - interval '2 days',"
                  + " now() - interval '2 days', now() - interval '1 day' + (g % 1000) *"
                  + " interval '1 second', '/api/v1/orders/' || g, 201,"
                  + " '{\"Content-Type\":[\"application/json\"]}',"
                  + " convert_to(repeat('x', 256), 'UTF8')"
                  + " FROM generate_series(1, "
                  + options.purgeRows
                  + ") AS g");
      s.execute("ANALYZE idempotency_record");
      s.execute("CHECKPOINT");
    }
    double insertSeconds = (System.nanoTime() - t0) / 1e9;
    System.out.printf(
        Locale.ROOT, "inserted %d expired rows in %.1f s (with ANALYZE, CHECKPOINT)%n",
        inserted, insertSeconds);

    // Warm-up: the same shape.
    long warmupDeadline = System.nanoTime() + options.warmupSeconds * 1_000_000_000L;
    while (warmupDeadline - System.nanoTime() > 2_000_000_000L) {
      long length =
          Math.min(
              warmupDeadline - System.nanoTime(), options.warmupSegmentSeconds * 1_000_000_000L);
      print(
          "warm-up",
          runLoad(Shape.KEYED, options.purgeConnections, length, "keyed", null));
    }

    List<PhaseResult> phases = new ArrayList<>();
    PhaseResult without =
        runLoad(
            Shape.KEYED,
            options.purgeConnections,
            0,
            "without purge",
            new Window(options.purgeBaselineSeconds * 1_000_000_000L));
    print("no purge", without);
    phases.add(without);

    // With the purge: load first, the purge one second later; measured from the purge's request
    // to its answer.
    Window window = new Window(0);
    AtomicReference<HttpResponse<byte[]>> purgeAnswer = new AtomicReference<>();
    AtomicReference<Exception> purgeFailure = new AtomicReference<>();
    long[] purgeRoundTrip = new long[1];
    Thread purger =
        new Thread(
            () -> {
              try {
                while (window.loadStart == 0) {
                  Thread.sleep(10);
                }
                sleepUntil(window.loadStart + 1_000_000_000L);
                HttpRequest purge =
                    HttpRequest.newBuilder(
                            URI.create(options.baseUrl + "/api/v1/admin/purges"))
                        .timeout(Duration.ofSeconds(options.purgeTimeoutSeconds))
                        .header("Authorization", operatorAuthorization)
                        .header("Content-Type", "application/json")
                        .header("X-Requested-By", "banhang-bench")
                        .header("Accept", "application/json")
                        .header("Idempotency-Key", UUID.randomUUID().toString())
                        .POST(HttpRequest.BodyPublishers.ofString("{}"))
                        .build();
                window.ticksAtOpen = serverTicks();
                long sent = System.nanoTime();
                window.opened = sent;
                HttpResponse<byte[]> r = send(ownerClient, purge);
                long answered = System.nanoTime();
                window.ticksAtClose = serverTicks();
                purgeRoundTrip[0] = answered - sent;
                window.closedAt = answered;
                purgeAnswer.set(r);
              } catch (Exception e) {
                purgeFailure.set(e);
              } finally {
                window.closed = true;
              }
            },
            "purge");
    purger.start();
    PhaseResult with =
        runLoad(Shape.KEYED, options.purgeConnections, 0, "during purge", window);
    purger.join();
    if (purgeFailure.get() != null) {
      throw abort("the purge request failed: " + purgeFailure.get());
    }
    HttpResponse<byte[]> answer = purgeAnswer.get();
    if (answer.statusCode() != 200) {
      throw abort("the purge answered " + answer.statusCode() + ": " + text(answer));
    }
    print("purge", with);
    phases.add(with);
    String purgeMessage = text(answer);
    System.out.println("purge answered: " + purgeMessage);

    PhaseResult after = null;
    if (options.purgeAfterSeconds > 0) {
      after =
          runLoad(
              Shape.KEYED,
              options.purgeConnections,
              0,
              "after purge",
              new Window(options.purgeAfterSeconds * 1_000_000_000L));
      print("after", after);
      phases.add(after);
    }

    // What the purge-run record says, and what is left of the expired rows.
    Map<String, String> run = new LinkedHashMap<>();
    long left;
    try (Connection c =
            DriverManager.getConnection(options.jdbcUrl, options.jdbcUser, options.jdbcPassword);
        Statement s = c.createStatement()) {
      try (ResultSet rs =
          s.executeQuery(
              "SELECT started_at, node, started_by, rows_deleted, duration_ms"
                  + " FROM idempotency_purge_run ORDER BY id DESC LIMIT 1")) {
        if (rs.next()) {
          for (String col :
              List.of("started_at", "node", "started_by", "rows_deleted", "duration_ms")) {
            run.put(col, rs.getString(col));
          }
        }
      }
      try (ResultSet rs =
          s.executeQuery(
              "SELECT count(*) FROM idempotency_record WHERE tenant_id = '"
                  + options.purgeTenant.replace("'", "''")
                  + "'")) {
        rs.next();
        left = rs.getLong(1);
      }
    }
    System.out.println("latest purge run: " + run + "; expired rows left: " + left);

    String loadEnd = loadAverage();
    String dateEnd = dateU();
    String memory = shopMemory();
    System.out.println(memory);
    String md =
        purgeReport(
            phases,
            inserted,
            insertSeconds,
            purgeMessage,
            purgeRoundTrip[0],
            run,
            left,
            dateStart,
            dateEnd,
            loadStart,
            loadEnd,
            memory);
    System.out.println();
    System.out.println(md);
    if (options.markdownOut != null) {
      Files.writeString(Path.of(options.markdownOut), md);
      System.out.println("written to " + options.markdownOut);
    }
    if (left > 0) {
      throw abort(
          left
              + " expired rows of "
              + options.purgeTenant
              + " survived one purge run: raise IDEMPOTENCY_RETENTION_MAX_BATCHES");
    }
  }

  // ---- reports --------------------------------------------------------------------------------

  String header(String title, String dateStart, String dateEnd, String loadStart, String loadEnd) {
    StringBuilder md = new StringBuilder();
    md.append("# ").append(title).append("\n\n");
    md.append("- **Command:** `").append(options.command).append("`\n");
    md.append("- **Database:** ").append(options.database).append("\n");
    md.append("- **Started:** ").append(dateStart).append("\n");
    md.append("- **Ended:** ").append(dateEnd).append("\n");
    md.append("- **Machine:** nproc ")
        .append(Runtime.getRuntime().availableProcessors())
        .append(", ")
        .append(cpuModel())
        .append(", memory ")
        .append(memTotal())
        .append("\n");
    md.append("- **Java:** ").append(javaVersion()).append("\n");
    md.append("- **Load average:** ");
    if (options.loadAtLaunch != null) {
      md.append(options.loadAtLaunch).append(" before the servers started, ");
    }
    md.append(loadStart)
        .append(" when the measurement started, ")
        .append(loadEnd)
        .append(" at its end\n");
    md.append("- **CPU counted:** the shop's JVM (pid ")
        .append(shopPid)
        .append(")")
        .append(
            postmasterPid > 0
                ? " plus every PostgreSQL process of postmaster " + postmasterPid
                : " (H2 runs inside it)")
        .append("; the client runs on the same machine and is not counted\n\n");
    return md.toString();
  }

  String costReport(
      List<PhaseResult> results,
      String dateStart,
      String dateEnd,
      String loadStart,
      String loadEnd,
      String memory) {
    StringBuilder md =
        new StringBuilder(
            header("Idempotency cost: " + options.database, dateStart, dateEnd, loadStart, loadEnd));
    md.append(
        String.format(
            Locale.ROOT,
            "Warm-up %d s; %d rounds, each shape at each connection count for %d s, shape and"
                + " connection order rotated per round; conflict: sandbox latency %d ms, owner head"
                + " start %d ms, duplicates stop %d ms before the owner ends.%n%n",
            options.warmupSeconds,
            options.rounds,
            options.roundSeconds,
            options.conflictLatencyMs,
            options.conflictHeadStartMs,
            options.conflictMarginMs));
    md.append("## Medians over rounds\n\n");
    md.append(
        "| shape | connections | req/s | p50 ms | p99 ms | mean ms | CPU us/req | cores busy"
            + " | client CPU us/req | requests (all rounds) | client errors |\n");
    md.append("|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (Shape shape : options.shapes) {
      for (int c : sorted(options.connections)) {
        List<PhaseResult> rs = of(results, shape, c);
        md.append(
            String.format(
                Locale.ROOT,
                "| %s | %d | %.1f | %.2f | %.2f | %.2f | %.0f | %.2f | %.0f | %d | %d |%n",
                shape.label,
                c,
                median(rs, PhaseResult::requestsPerSecond),
                median(rs, r -> r.percentileMillis(50)),
                median(rs, r -> r.percentileMillis(99)),
                median(rs, PhaseResult::meanMillis),
                median(rs, PhaseResult::serverCpuMicrosPerRequest),
                median(rs, PhaseResult::serverCoresBusy),
                median(rs, PhaseResult::clientCpuMicrosPerRequest),
                rs.stream().mapToLong(PhaseResult::requests).sum(),
                rs.stream().mapToLong(PhaseResult::clientErrors).sum()));
      }
    }
    if (options.shapes.contains(Shape.CONFLICT)) {
      md.append("\n409 answers while an owner is slow (only the duplicates), p99 per round:\n\n");
      md.append(
          "| connections | p99 of the 409s, median (min..max over rounds) ms | 409s | owners"
              + " | late duplicates |\n");
      md.append("|---|---|---|---|---|\n");
      for (int c : sorted(options.connections)) {
        List<PhaseResult> rs = of(results, Shape.CONFLICT, c);
        double[] p99 = rs.stream().mapToDouble(r -> r.percentileMillis(99)).toArray();
        md.append(
            String.format(
                Locale.ROOT,
                "| %d | %.2f (%.2f..%.2f) | %d | %d | %d |%n",
                c,
                median(p99),
                Arrays.stream(p99).min().orElse(Double.NaN),
                Arrays.stream(p99).max().orElse(Double.NaN),
                rs.stream().mapToLong(PhaseResult::requests).sum(),
                rs.stream().mapToInt(PhaseResult::owners).sum(),
                rs.stream().mapToLong(PhaseResult::lateDuplicates).sum()));
      }
      md.append(
          "\nLate duplicates: sent inside an owner's window but answered (correctly, by replay)"
              + " only after the owner could have finished, i.e. queued longer than the margin;"
              + " not in the latencies. Many of them mean the server was saturated.\n");
    }
    md.append("\n## Ratios\n\n");
    md.append("Of the medians; in brackets the median of the per-round ratios.\n\n");
    md.append(
        "| connections | keyed/unkeyed req/s | keyed/unkeyed CPU per request | replay/keyed req/s"
            + " | replay/keyed CPU per request |\n");
    md.append("|---|---|---|---|---|\n");
    for (int c : sorted(options.connections)) {
      md.append("| ").append(c).append(" | ");
      md.append(ratio(results, Shape.KEYED, Shape.UNKEYED, c, PhaseResult::requestsPerSecond));
      md.append(" | ");
      md.append(
          ratio(results, Shape.KEYED, Shape.UNKEYED, c, PhaseResult::serverCpuMicrosPerRequest));
      md.append(" | ");
      md.append(ratio(results, Shape.REPLAY, Shape.KEYED, c, PhaseResult::requestsPerSecond));
      md.append(" | ");
      md.append(
          ratio(results, Shape.REPLAY, Shape.KEYED, c, PhaseResult::serverCpuMicrosPerRequest));
      md.append(" |\n");
    }
    int lowest = sorted(options.connections)[0];
    if (options.shapes.contains(Shape.KEYED) && options.shapes.contains(Shape.UNKEYED)) {
      List<PhaseResult> k = of(results, Shape.KEYED, lowest);
      List<PhaseResult> u = of(results, Shape.UNKEYED, lowest);
      double[] perRound = new double[Math.min(k.size(), u.size())];
      for (int i = 0; i < perRound.length; i++) {
        perRound[i] = k.get(i).meanMillis() - u.get(i).meanMillis();
      }
      md.append(
          String.format(
              Locale.ROOT,
              "%nAdded mean latency of a key at %d connection%s (keyed - unkeyed): %.3f ms"
                  + " (%.3f)%n",
              lowest,
              lowest == 1 ? "" : "s",
              median(k, PhaseResult::meanMillis) - median(u, PhaseResult::meanMillis),
              median(perRound)));
    } else {
      md.append("\nUnkeyed shape not run: no keyed/unkeyed ratios.\n");
    }
    md.append("\n## Shop memory after the run\n\n```\n").append(memory).append("```\n");
    md.append("\n## Per phase, in the order run\n\n");
    md.append(
        "| round | shape | connections | req/s | p50 ms | p99 ms | mean ms | CPU us/req |"
            + " requests | client errors |\n");
    md.append("|---|---|---|---|---|---|---|---|---|---|\n");
    int perRound = options.shapes.size() * options.connections.length;
    for (int i = 0; i < results.size(); i++) {
      PhaseResult r = results.get(i);
      md.append(
          String.format(
              Locale.ROOT,
              "| %d | %s | %d | %.1f | %.2f | %.2f | %.2f | %.0f | %d | %d |%n",
              i / perRound + 1,
              r.shape().label,
              r.connections(),
              r.requestsPerSecond(),
              r.percentileMillis(50),
              r.percentileMillis(99),
              r.meanMillis(),
              r.serverCpuMicrosPerRequest(),
              r.requests(),
              r.clientErrors()));
    }
    return md.toString();
  }

  String ratio(
      List<PhaseResult> results, Shape top, Shape bottom, int c, ToDoubleFunction<PhaseResult> f) {
    List<PhaseResult> a = of(results, top, c);
    List<PhaseResult> b = of(results, bottom, c);
    if (a.isEmpty() || b.isEmpty()) {
      return "n/a";
    }
    double[] perRound = new double[Math.min(a.size(), b.size())];
    for (int i = 0; i < perRound.length; i++) {
      perRound[i] = f.applyAsDouble(a.get(i)) / f.applyAsDouble(b.get(i));
    }
    return String.format(
        Locale.ROOT, "%.2f (%.2f)", median(a, f) / median(b, f), median(perRound));
  }

  String purgeReport(
      List<PhaseResult> phases,
      long inserted,
      double insertSeconds,
      String purgeMessage,
      long purgeRoundTripNanos,
      Map<String, String> run,
      long left,
      String dateStart,
      String dateEnd,
      String loadStart,
      String loadEnd,
      String memory) {
    StringBuilder md =
        new StringBuilder(
            header(
                "Retention purge under load: " + options.database,
                dateStart,
                dateEnd,
                loadStart,
                loadEnd));
    md.append(
        String.format(
            Locale.ROOT,
            "%d expired COMPLETED rows of tenant `%s` inserted through JDBC in %.1f s; warm-up %d s"
                + " of keyed creates; then keyed creates (the claim, the order, the completion)"
                + " at %d connections: %d s without a purge, while the operator's purge now runs"
                + " (requests started between the purge's request and its answer), and %d s"
                + " after it.%n%n",
            inserted,
            options.purgeTenant,
            insertSeconds,
            options.warmupSeconds,
            options.purgeConnections,
            options.purgeBaselineSeconds,
            options.purgeAfterSeconds));
    md.append(
        "| phase | seconds | requests | req/s | p50 ms | p99 ms | max ms | mean ms |"
            + " CPU us/req | client errors |\n");
    md.append("|---|---|---|---|---|---|---|---|---|---|\n");
    for (PhaseResult r : phases) {
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %.1f | %d | %.1f | %.2f | %.2f | %.2f | %.2f | %.0f | %d |%n",
              r.label(),
              r.wallNanos() / 1e9,
              r.requests(),
              r.requestsPerSecond(),
              r.percentileMillis(50),
              r.percentileMillis(99),
              r.maxMillis(),
              r.meanMillis(),
              r.serverCpuMicrosPerRequest(),
              r.clientErrors()));
    }
    md.append(
        "\nCPU per request of the purge phase: the shop's and PostgreSQL's CPU from the purge's"
            + " request to its answer, the purge's own work included, divided by the requests"
            + " started in that window.\n");
    md.append(
        String.format(
            Locale.ROOT,
            "%n- **Purge answer:** `%s`%n- **Purge round trip (client):** %.1f s%n"
                + "- **Purge-run record:** %s%n- **Expired rows left:** %d%n",
            purgeMessage.replace("`", "'"),
            purgeRoundTripNanos / 1e9,
            run,
            left));
    md.append("\n## Shop memory after the run\n\n```\n").append(memory).append("```\n");
    return md.toString();
  }

  static int[] sorted(int[] values) {
    int[] v = values.clone();
    Arrays.sort(v);
    return v;
  }

  static List<PhaseResult> of(List<PhaseResult> results, Shape shape, int conns) {
    return results.stream()
        .filter(r -> r.shape() == shape && r.connections() == conns)
        .toList();
  }

  static double median(List<PhaseResult> rs, ToDoubleFunction<PhaseResult> f) {
    return median(rs.stream().mapToDouble(f).toArray());
  }

  static double median(double[] values) {
    double[] v = values.clone();
    Arrays.sort(v);
    int n = v.length;
    return n == 0 ? Double.NaN : n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }

  // ---- the machine ----------------------------------------------------------------------------

  /** The shop JVM's CPU plus, on PostgreSQL, all of the postmaster's processes, in ticks. */
  long serverTicks() {
    long ticks = cpuTicks(shopPid);
    if (postmasterPid > 0) {
      ticks += postgresTicks(postmasterPid);
    }
    return ticks;
  }

  /**
   * utime + stime of the postmaster and of every process named postgres whose parent chain leads
   * to it, plus the postmaster's cutime + cstime (what its children that ended used): the sum does
   * not drop when a backend exits.
   */
  static long postgresTicks(long postmaster) {
    Map<Long, long[]> stats = new HashMap<>(); // pid -> {ppid, utime+stime}
    Map<Long, String> names = new HashMap<>();
    try (var dirs = Files.list(Path.of("/proc"))) {
      for (Path p : (Iterable<Path>) dirs::iterator) {
        String name = p.getFileName().toString();
        if (!name.chars().allMatch(Character::isDigit)) {
          continue;
        }
        try {
          String stat = Files.readString(p.resolve("stat"));
          String comm = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
          String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
          stats.put(
              Long.parseLong(name),
              new long[] {Long.parseLong(f[1]), Long.parseLong(f[11]) + Long.parseLong(f[12])});
          names.put(Long.parseLong(name), comm);
        } catch (IOException | RuntimeException e) {
          // gone meanwhile
        }
      }
    } catch (IOException e) {
      throw abort("cannot list /proc: " + e);
    }
    long total = 0;
    for (Map.Entry<Long, long[]> e : stats.entrySet()) {
      long pid = e.getKey();
      if (!"postgres".equals(names.get(pid))) {
        continue;
      }
      long at = pid;
      for (int depth = 0; depth < 10 && at > 1; depth++) {
        if (at == postmaster) {
          total += e.getValue()[1];
          break;
        }
        long[] s = stats.get(at);
        if (s == null) {
          break;
        }
        at = s[0];
      }
    }
    try {
      String stat = Files.readString(Path.of("/proc/" + postmaster + "/stat"));
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
      total += Long.parseLong(f[13]) + Long.parseLong(f[14]);
    } catch (IOException | RuntimeException e) {
      throw abort("the postmaster " + postmaster + " is gone: " + e);
    }
    return total;
  }

  /** utime + stime of a process, all its threads, in clock ticks. */
  static long cpuTicks(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
      return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    } catch (IOException | RuntimeException e) {
      throw abort("cannot read the CPU time of pid " + pid + ": " + e);
    }
  }

  static double ticksToMicros(long ticks) {
    return ticks * 1_000_000.0 / clockTicksPerSecond;
  }

  static long clockTicks() {
    String out = run("getconf", "CLK_TCK").trim();
    try {
      return Long.parseLong(out);
    } catch (NumberFormatException e) {
      return 100;
    }
  }

  static String[] cmdline(long pid) {
    try {
      return Files.readString(Path.of("/proc/" + pid + "/cmdline"), StandardCharsets.UTF_8)
          .split("\0");
    } catch (IOException | RuntimeException e) {
      return new String[0];
    }
  }

  /** The one JVM whose command line runs ws-server.jar for this server name. */
  static long findShopPid(String server) {
    List<Long> found =
        ProcessHandle.allProcesses()
            .map(ProcessHandle::pid)
            .filter(
                pid -> {
                  List<String> args = Arrays.asList(cmdline(pid));
                  return args.stream().anyMatch(a -> a.endsWith("ws-server.jar"))
                      && args.contains(server);
                })
            .toList();
    if (found.size() != 1) {
      throw abort(
          found.size() + " Liberty JVMs for server " + server + ": " + found + "; pass --pid");
    }
    return found.get(0);
  }

  /** The postmaster: a postgres process whose command line has -D <data dir>. */
  static long findPostmaster(String dataDir) {
    Path want = Path.of(dataDir).toAbsolutePath().normalize();
    List<Long> found =
        ProcessHandle.allProcesses()
            .map(ProcessHandle::pid)
            .filter(
                pid -> {
                  String[] args = cmdline(pid);
                  if (args.length < 3 || !args[0].endsWith("/postgres")) {
                    return false;
                  }
                  for (int i = 0; i + 1 < args.length; i++) {
                    if (args[i].equals("-D")
                        && Path.of(args[i + 1]).toAbsolutePath().normalize().equals(want)) {
                      return true;
                    }
                  }
                  return false;
                })
            .toList();
    if (found.size() != 1) {
      throw abort(found.size() + " postmasters for data directory " + want + ": " + found);
    }
    return found.get(0);
  }

  String shopMemory() {
    StringBuilder s = new StringBuilder();
    try {
      for (String line : Files.readAllLines(Path.of("/proc/" + shopPid + "/status"))) {
        if (line.startsWith("VmRSS") || line.startsWith("VmHWM")) {
          s.append(line.replaceAll("\\s+", " ")).append('\n');
        }
      }
    } catch (IOException e) {
      s.append("no /proc status: ").append(e).append('\n');
    }
    String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
    s.append("jcmd ").append(shopPid).append(" GC.heap_info:\n");
    s.append(run(jcmd, Long.toString(shopPid), "GC.heap_info"));
    return s.toString();
  }

  static String cpuModel() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (line.startsWith("model name")) {
          return line.substring(line.indexOf(':') + 1).trim();
        }
      }
    } catch (IOException e) {
      // fall through
    }
    return "unknown CPU";
  }

  static String memTotal() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
        if (line.startsWith("MemTotal")) {
          long kb = Long.parseLong(line.replaceAll("\\D", ""));
          return String.format(Locale.ROOT, "%.1f GiB", kb / 1024.0 / 1024.0);
        }
      }
    } catch (IOException | RuntimeException e) {
      // fall through
    }
    return "unknown";
  }

  static String javaVersion() {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    return run(java, "-version").trim().replace("\n", "; ");
  }

  static String dateU() {
    return run("date", "-u").trim();
  }

  static String run(String... command) {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      p.waitFor();
      return out;
    } catch (IOException e) {
      return "(" + String.join(" ", command) + " failed: " + e + ")\n";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "(interrupted)\n";
    }
  }

  static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException e) {
      return "unknown";
    }
  }

  static void requireLoopback(String baseUrl) {
    URI uri = URI.create(baseUrl);
    String host = uri.getHost();
    if (!"http".equals(uri.getScheme())
        || host == null
        || !(host.equals("localhost") || host.equals("127.0.0.1") || host.equals("[::1]"))) {
      fail("only http://localhost, 127.0.0.1 or [::1] may be targeted, not " + baseUrl);
    }
  }

  static void requireLoopbackJdbc(String url) {
    if (!url.startsWith("jdbc:postgresql://127.0.0.1:")
        && !url.startsWith("jdbc:postgresql://localhost:")) {
      fail("only a PostgreSQL on 127.0.0.1 or localhost may be written to, not " + url);
    }
  }

  static void startWatchdog(long maxSeconds) {
    Thread watchdog =
        new Thread(
            () -> {
              try {
                Thread.sleep(maxSeconds * 1000);
              } catch (InterruptedException e) {
                return;
              }
              System.err.println("watchdog: the run took longer than " + maxSeconds + " s");
              Runtime.getRuntime().halt(3);
            },
            "watchdog");
    watchdog.setDaemon(true);
    watchdog.start();
  }

  static RuntimeException abort(String message) {
    System.out.flush();
    System.err.println("ABORT: " + message);
    System.exit(2);
    return new IllegalStateException(message);
  }

  static RuntimeException fail(String message) {
    System.err.println(message);
    System.exit(64);
    return new IllegalArgumentException(message);
  }
}
