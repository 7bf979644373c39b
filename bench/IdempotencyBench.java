import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the idempotency layer of the shop costs, measured side by side against a running shop.
 *
 * <p>Three request shapes, all {@code alice}'s, all through the same HTTP, Basic-auth and JSON stack:
 *
 * <ul>
 *   <li><b>create</b>: {@code POST /api/v1/orders} with a new {@code Idempotency-Key} each time:
 *       the claim, the business work and the completion;
 *   <li><b>replay</b>: {@code POST /api/v1/orders} with a key already completed (a pool created
 *       during warm-up, picked round-robin): the stored response is answered, nothing runs;
 *   <li><b>read</b>: {@code GET /api/v1/orders/{id}} of an order of that pool: no idempotency work,
 *       the baseline.
 * </ul>
 *
 * <p>After a warm-up that cycles through the three shapes (the JIT of a 2-core machine needs
 * minutes), it runs interleaved rounds, one phase per shape per round with the order rotated each
 * round, and records per phase the requests per second, p50 and p99 latency, and the CPU time the
 * shop's JVM used (utime + stime of {@code /proc/<pid>/stat}) divided by the requests. It reports
 * the medians over rounds and the ratios create/read, replay/read and replay/create, as Markdown.
 * Any answer that is not the expected 2xx aborts the run.
 *
 * <p>Run from the repository root, with the shop running: {@code java bench/IdempotencyBench.java
 * [--help]}. JDK 17, no dependencies. Only localhost is ever targeted; every phase is bounded in
 * time and in requests, and a watchdog ends the whole run if it overstays its plan.
 */
public class IdempotencyBench {

  enum Shape {
    CREATE("create"),
    REPLAY("replay"),
    READ("read");

    final String label;

    Shape(String label) {
      this.label = label;
    }
  }

  /** The options, with their defaults and bounds. */
  static final class Options {
    String baseUrl = "http://localhost:9080";
    String user = "alice";
    String password = "alice-secret";
    int threads = 8;
    int warmupSeconds = 120;
    int rounds = 6;
    int roundSeconds = 20;
    int poolSize = 1000;
    int warmupSegmentSeconds = 10;
    long maxRequestsPerPhase = 2_000_000;
    int requestTimeoutSeconds = 30;
    long pid = -1;
    String wlp = "ecommerce-app/shop-web/target/liberty/wlp";
    String server = "shop";
    String markdownOut;

    static Options parse(String[] args) {
      Options o = new Options();
      for (int i = 0; i < args.length; i++) {
        String a = args[i];
        if (a.equals("-h") || a.equals("--help")) {
          usage();
          System.exit(0);
        }
        if (i + 1 >= args.length) {
          fail("missing value for " + a);
        }
        String v = args[++i];
        switch (a) {
          case "--url" -> o.baseUrl = v.endsWith("/") ? v.substring(0, v.length() - 1) : v;
          case "--user" -> o.user = v;
          case "--password" -> o.password = v;
          case "--threads" -> o.threads = bounded(a, v, 1, 256);
          case "--warmup" -> o.warmupSeconds = bounded(a, v, 0, 3600);
          case "--rounds" -> o.rounds = bounded(a, v, 1, 50);
          case "--round-seconds" -> o.roundSeconds = bounded(a, v, 1, 600);
          case "--pool" -> o.poolSize = bounded(a, v, 1, 100_000);
          case "--warmup-segment" -> o.warmupSegmentSeconds = bounded(a, v, 1, 600);
          case "--max-requests" -> o.maxRequestsPerPhase = bounded(a, v, 1, 100_000_000);
          case "--timeout" -> o.requestTimeoutSeconds = bounded(a, v, 1, 300);
          case "--pid" -> o.pid = bounded(a, v, 1, Integer.MAX_VALUE);
          case "--wlp" -> o.wlp = v;
          case "--server" -> o.server = v;
          case "--markdown-out" -> o.markdownOut = v;
          default -> fail("unknown option " + a + " (try --help)");
        }
      }
      return o;
    }

    static int bounded(String name, String value, int min, int max) {
      int n;
      try {
        n = Integer.parseInt(value);
      } catch (NumberFormatException e) {
        throw fail(name + " needs a number, got " + value);
      }
      if (n < min || n > max) {
        fail(name + " must be between " + min + " and " + max + ", got " + n);
      }
      return n;
    }

    static void usage() {
      System.out.println(
          """
          java bench/IdempotencyBench.java [options]     (run from the repository root)
            --url URL              shop base URL, localhost only   (http://localhost:9080)
            --user NAME            customer                        (alice)
            --password SECRET      its password                    (alice-secret)
            --threads N            concurrent client threads       (8)
            --warmup S             warm-up seconds, all shapes     (120)
            --warmup-segment S     seconds per shape in warm-up    (10)
            --rounds N             measured rounds                 (6)
            --round-seconds S      seconds per shape per round     (20)
            --pool N               completed keys for replay/read  (1000)
            --max-requests N       cap of requests per phase       (2000000)
            --timeout S            per-request timeout             (30)
            --pid PID              the shop's JVM (default: <wlp>/usr/servers/.pid/<server>.pid)
            --wlp DIR              Liberty install  (ecommerce-app/shop-web/target/liberty/wlp)
            --server NAME          Liberty server name             (shop)
            --markdown-out FILE    also write the final Markdown tables to FILE
          """);
    }
  }

  /** A completed key of the pool: the key, the body it was created with, the order it made. */
  record PooledKey(String key, String body, String orderId) {}

  /** One measured phase: one shape for a bounded time. */
  record PhaseResult(
      Shape shape,
      long requests,
      long errors,
      long wallNanos,
      long serverCpuTicks,
      long clientCpuTicks,
      long[] sortedLatencyNanos) {

    double requestsPerSecond() {
      return requests * 1e9 / wallNanos;
    }

    double serverCpuMicrosPerRequest() {
      return requests == 0 ? Double.NaN : ticksToMicros(serverCpuTicks) / requests;
    }

    double clientCpuMicrosPerRequest() {
      return requests == 0 ? Double.NaN : ticksToMicros(clientCpuTicks) / requests;
    }

    double serverCoresBusy() {
      return ticksToMicros(serverCpuTicks) * 1000.0 / wallNanos;
    }

    double percentileMillis(double p) {
      if (sortedLatencyNanos.length == 0) {
        return Double.NaN;
      }
      int rank = (int) Math.ceil(p / 100.0 * sortedLatencyNanos.length);
      return sortedLatencyNanos[Math.max(0, Math.min(rank, sortedLatencyNanos.length) - 1)] / 1e6;
    }
  }

  static final Pattern ORDER_ID = Pattern.compile("\"id\"\\s*:\\s*\"([^\"]+)\"");
  static long clockTicksPerSecond = 100;

  final Options options;
  final String authorization;
  final long serverPid;
  final HttpClient[] clients;
  final AtomicLong skuSequence = new AtomicLong();
  final AtomicLong roundRobin = new AtomicLong();
  final List<PooledKey> pool = new ArrayList<>();
  final String runId = Long.toString(System.currentTimeMillis(), 36);

  IdempotencyBench(Options options, long serverPid) {
    this.options = options;
    this.serverPid = serverPid;
    this.authorization =
        "Basic "
            + Base64.getEncoder()
                .encodeToString(
                    (options.user + ":" + options.password).getBytes(StandardCharsets.UTF_8));
    this.clients = new HttpClient[options.threads];
    for (int i = 0; i < clients.length; i++) {
      // One client (one keep-alive connection) per thread, HTTP/1.1: no h2c upgrade attempt.
      clients[i] =
          HttpClient.newBuilder()
              .version(HttpClient.Version.HTTP_1_1)
              .connectTimeout(Duration.ofSeconds(5))
              .followRedirects(HttpClient.Redirect.NEVER)
              .build();
    }
  }

  public static void main(String[] args) throws Exception {
    Options options = Options.parse(args);
    requireLocalhost(options.baseUrl);
    clockTicksPerSecond = clockTicks();
    long pid = options.pid > 0 ? options.pid : findServerPid(options);
    requireAlive(pid);

    long plannedSeconds =
        options.warmupSeconds + (long) options.rounds * Shape.values().length * options.roundSeconds;
    startWatchdog(plannedSeconds + 300);

    IdempotencyBench bench = new IdempotencyBench(options, pid);
    bench.run();
    System.exit(0);
  }

  void run() throws Exception {
    String startLoad = loadAverage();
    String started = ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
    System.out.printf(
        "IdempotencyBench %s: %s, user %s, %d threads, warm-up %d s, %d rounds x 3 shapes x %d s,"
            + " pool %d; shop JVM pid %d; %d CPUs; CLK_TCK %d%n",
        started,
        options.baseUrl,
        options.user,
        options.threads,
        options.warmupSeconds,
        options.rounds,
        options.roundSeconds,
        options.poolSize,
        serverPid,
        Runtime.getRuntime().availableProcessors(),
        clockTicksPerSecond);
    System.out.println("load average at start: " + startLoad);
    requireHealthy();

    long warmupDeadline = System.nanoTime() + options.warmupSeconds * 1_000_000_000L;
    buildPool();
    warmUp(warmupDeadline);

    List<PhaseResult> results = new ArrayList<>();
    Shape[] shapes = Shape.values();
    for (int round = 0; round < options.rounds; round++) {
      for (int s = 0; s < shapes.length; s++) {
        Shape shape = shapes[(s + round) % shapes.length];
        PhaseResult r = runPhase(shape, options.roundSeconds * 1_000_000_000L);
        requireNoErrors(r, "round " + (round + 1));
        results.add(r);
        System.out.printf(
            Locale.ROOT,
            "round %d %-6s %8.1f req/s  p50 %7.2f ms  p99 %7.2f ms  server CPU %7.0f us/req"
                + " (%.2f cores)  client CPU %6.0f us/req  non-2xx %d%n",
            round + 1,
            shape.label,
            r.requestsPerSecond(),
            r.percentileMillis(50),
            r.percentileMillis(99),
            r.serverCpuMicrosPerRequest(),
            r.serverCoresBusy(),
            r.clientCpuMicrosPerRequest(),
            r.errors());
      }
    }
    String endLoad = loadAverage();
    System.out.println("load average at end: " + endLoad);

    String markdown = report(results, started, startLoad, endLoad);
    System.out.println();
    System.out.println(markdown);
    if (options.markdownOut != null) {
      Files.writeString(Path.of(options.markdownOut), markdown);
    }
  }

  // ---- the three shapes -------------------------------------------------------------------

  /** Creates the pool of completed keys (and their orders) that replay and read use. */
  void buildPool() throws Exception {
    long t0 = System.nanoTime();
    PooledKey[][] slices = new PooledKey[options.threads][];
    AtomicReference<Exception> failure = new AtomicReference<>();
    Thread[] workers = new Thread[options.threads];
    for (int w = 0; w < options.threads; w++) {
      int worker = w;
      int from = options.poolSize * w / options.threads;
      int to = options.poolSize * (w + 1) / options.threads;
      slices[w] = new PooledKey[to - from];
      workers[w] =
          new Thread(
              () -> {
                try {
                  for (int i = 0; i < to - from; i++) {
                    String key = UUID.randomUUID().toString();
                    String body = orderBody();
                    HttpResponse<byte[]> response = send(worker, createRequest(key, body));
                    expect(response, 201, false);
                    String text = new String(response.body(), StandardCharsets.UTF_8);
                    Matcher m = ORDER_ID.matcher(text);
                    if (!m.find()) {
                      throw new IllegalStateException("no order id in the 201 body: " + text);
                    }
                    slices[worker][i] = new PooledKey(key, body, m.group(1));
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
      abort("building the key pool failed: " + failure.get());
    }
    for (PooledKey[] slice : slices) {
      pool.addAll(Arrays.asList(slice));
    }
    // The keys must replay, byte for byte and flagged, before they are used to measure replays.
    HttpResponse<byte[]> replay = send(0, createRequest(pool.get(0).key(), pool.get(0).body()));
    expect(replay, 201, true);
    System.out.printf(
        Locale.ROOT,
        "pool: %d completed keys in %.1f s%n",
        pool.size(),
        (System.nanoTime() - t0) / 1e9);
  }

  /** Cycles through the shapes until the deadline; the results only show the JIT's progress. */
  void warmUp(long deadline) throws Exception {
    Shape[] shapes = Shape.values();
    int segment = 0;
    while (true) {
      long left = deadline - System.nanoTime();
      if (left < 1_000_000_000L) {
        break;
      }
      Shape shape = shapes[segment++ % shapes.length];
      long length = Math.min(left, options.warmupSegmentSeconds * 1_000_000_000L);
      PhaseResult r = runPhase(shape, length);
      requireNoErrors(r, "warm-up");
      System.out.printf(
          Locale.ROOT,
          "warm-up %-6s %8.1f req/s  p50 %7.2f ms  server CPU %7.0f us/req%n",
          shape.label,
          r.requestsPerSecond(),
          r.percentileMillis(50),
          r.serverCpuMicrosPerRequest());
    }
  }

  HttpRequest requestFor(Shape shape) {
    return switch (shape) {
      case CREATE -> createRequest(UUID.randomUUID().toString(), orderBody());
      case REPLAY -> {
        PooledKey k = nextPooled();
        yield createRequest(k.key(), k.body());
      }
      case READ -> readRequest(nextPooled().orderId());
    };
  }

  void check(Shape shape, HttpResponse<byte[]> response) {
    switch (shape) {
      case CREATE -> expect(response, 201, false);
      case REPLAY -> expect(response, 201, true);
      case READ -> expect(response, 200, false);
    }
  }

  PooledKey nextPooled() {
    return pool.get((int) (roundRobin.getAndIncrement() % pool.size()));
  }

  String orderBody() {
    long n = skuSequence.incrementAndGet();
    return "{\"currency\":\"VND\",\"items\":[{\"sku\":\"BENCH-"
        + runId
        + "-"
        + n
        + "\",\"quantity\":1,\"unitPrice\":1000}]}";
  }

  HttpRequest createRequest(String key, String body) {
    return HttpRequest.newBuilder(URI.create(options.baseUrl + "/api/v1/orders"))
        .timeout(Duration.ofSeconds(options.requestTimeoutSeconds))
        .header("Authorization", authorization)
        .header("Content-Type", "application/json")
        .header("Accept", "application/json")
        .header("Idempotency-Key", key)
        .POST(HttpRequest.BodyPublishers.ofString(body))
        .build();
  }

  HttpRequest readRequest(String orderId) {
    return HttpRequest.newBuilder(URI.create(options.baseUrl + "/api/v1/orders/" + orderId))
        .timeout(Duration.ofSeconds(options.requestTimeoutSeconds))
        .header("Authorization", authorization)
        .header("Accept", "application/json")
        .GET()
        .build();
  }

  // ---- running a phase ----------------------------------------------------------------------

  /**
   * Runs one shape on every thread for {@code lengthNanos} (or until the request cap), and
   * measures the shop JVM's CPU time across exactly that interval.
   */
  PhaseResult runPhase(Shape shape, long lengthNanos) throws Exception {
    int n = options.threads;
    LatencyLog[] logs = new LatencyLog[n];
    AtomicLong issued = new AtomicLong();
    AtomicLong errors = new AtomicLong();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<String> firstError = new AtomicReference<>();
    CountDownLatch ready = new CountDownLatch(n);
    CountDownLatch go = new CountDownLatch(1);
    long[] deadline = new long[1];
    Thread[] workers = new Thread[n];
    for (int w = 0; w < n; w++) {
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
                    && System.nanoTime() < deadline[0]
                    && issued.incrementAndGet() <= options.maxRequestsPerPhase) {
                  HttpRequest request = requestFor(shape);
                  long t0 = System.nanoTime();
                  try {
                    HttpResponse<byte[]> response = send(worker, request);
                    long latency = System.nanoTime() - t0;
                    check(shape, response);
                    logs[worker].add(latency);
                  } catch (Exception e) {
                    errors.incrementAndGet();
                    firstError.compareAndSet(null, shape.label + ": " + e.getMessage());
                    stop.set(true);
                  }
                }
              },
              shape.label + "-" + w);
      workers[w].start();
    }
    ready.await();
    long serverBefore = cpuTicks(serverPid);
    long clientBefore = cpuTicks(ProcessHandle.current().pid());
    long start = System.nanoTime();
    deadline[0] = start + lengthNanos;
    go.countDown();
    for (Thread t : workers) {
      t.join();
    }
    long wall = System.nanoTime() - start;
    long serverCpu = cpuTicks(serverPid) - serverBefore;
    long clientCpu = cpuTicks(ProcessHandle.current().pid()) - clientBefore;

    long requests = 0;
    for (LatencyLog log : logs) {
      requests += log.size;
    }
    long[] all = new long[(int) requests];
    int at = 0;
    for (LatencyLog log : logs) {
      System.arraycopy(log.values, 0, all, at, log.size);
      at += log.size;
    }
    Arrays.sort(all);
    if (errors.get() > 0) {
      System.out.println("first failure: " + firstError.get());
    }
    return new PhaseResult(shape, requests, errors.get(), wall, serverCpu, clientCpu, all);
  }

  /** A growable array of latencies owned by one thread. */
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

  HttpResponse<byte[]> send(int worker, HttpRequest request) throws IOException {
    try {
      return clients[worker].send(request, HttpResponse.BodyHandlers.ofByteArray());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  /** Anything but the expected status, or a replay flag where none belongs, is a failure. */
  static void expect(HttpResponse<byte[]> response, int status, boolean replayed) {
    boolean flagged =
        response.headers().firstValue("Idempotent-Replayed").orElse("").equals("true");
    if (response.statusCode() != status || flagged != replayed) {
      String body = new String(response.body(), StandardCharsets.UTF_8);
      throw new IllegalStateException(
          "HTTP "
              + response.statusCode()
              + " (expected "
              + status
              + (replayed ? ", replayed" : ", not replayed")
              + ", Idempotent-Replayed: "
              + flagged
              + ") "
              + response.request().method()
              + " "
              + response.request().uri()
              + ": "
              + body.substring(0, Math.min(300, body.length())));
    }
  }

  static void requireNoErrors(PhaseResult r, String where) {
    if (r.errors() > 0) {
      abort(r.errors() + " failed or non-2xx requests in " + where + " (" + r.shape().label + ")");
    }
  }

  void requireHealthy() throws IOException {
    HttpRequest health =
        HttpRequest.newBuilder(URI.create(options.baseUrl + "/health"))
            .timeout(Duration.ofSeconds(10))
            .GET()
            .build();
    HttpResponse<byte[]> response = send(0, health);
    if (response.statusCode() != 200) {
      abort("GET /health answered " + response.statusCode() + "; is the shop running?");
    }
  }

  // ---- the report -----------------------------------------------------------------------------

  String report(List<PhaseResult> results, String started, String startLoad, String endLoad) {
    StringBuilder md = new StringBuilder();
    md.append(
        String.format(
            Locale.ROOT,
            "Run %s; %d threads; warm-up %d s; %d rounds x 3 shapes x %d s, interleaved;"
                + " load average %s at start, %s at end.%n%n",
            started,
            options.threads,
            options.warmupSeconds,
            options.rounds,
            options.roundSeconds,
            startLoad,
            endLoad));

    md.append("Per round:\n\n");
    md.append("| round | shape | req/s | p50 ms | p99 ms | server CPU us/req | non-2xx |\n");
    md.append("|---|---|---|---|---|---|---|\n");
    int perRound = Shape.values().length;
    for (int i = 0; i < results.size(); i++) {
      PhaseResult r = results.get(i);
      md.append(
          String.format(
              Locale.ROOT,
              "| %d | %s | %.1f | %.2f | %.2f | %.0f | %d |%n",
              i / perRound + 1,
              r.shape().label,
              r.requestsPerSecond(),
              r.percentileMillis(50),
              r.percentileMillis(99),
              r.serverCpuMicrosPerRequest(),
              r.errors()));
    }

    md.append("\nMedians over rounds:\n\n");
    md.append(
        "| shape | req/s | p50 ms | p99 ms | server CPU us/req | server cores busy"
            + " | client CPU us/req | non-2xx (all rounds) |\n");
    md.append("|---|---|---|---|---|---|---|---|\n");
    for (Shape shape : Shape.values()) {
      List<PhaseResult> rs = of(results, shape);
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %.1f | %.2f | %.2f | %.0f | %.2f | %.0f | %d |%n",
              shape.label,
              median(rs, PhaseResult::requestsPerSecond),
              median(rs, r -> r.percentileMillis(50)),
              median(rs, r -> r.percentileMillis(99)),
              median(rs, PhaseResult::serverCpuMicrosPerRequest),
              median(rs, PhaseResult::serverCoresBusy),
              median(rs, PhaseResult::clientCpuMicrosPerRequest),
              rs.stream().mapToLong(PhaseResult::errors).sum()));
    }

    md.append("\nRatios (of the medians; in brackets the median of the per-round ratios):\n\n");
    md.append("| ratio | throughput (req/s) | server CPU per request |\n");
    md.append("|---|---|---|\n");
    ratioRow(md, results, Shape.CREATE, Shape.READ);
    ratioRow(md, results, Shape.REPLAY, Shape.READ);
    ratioRow(md, results, Shape.REPLAY, Shape.CREATE);
    return md.toString();
  }

  void ratioRow(StringBuilder md, List<PhaseResult> results, Shape top, Shape bottom) {
    List<PhaseResult> a = of(results, top);
    List<PhaseResult> b = of(results, bottom);
    double[] tput = new double[a.size()];
    double[] cpu = new double[a.size()];
    for (int i = 0; i < a.size(); i++) {
      tput[i] = a.get(i).requestsPerSecond() / b.get(i).requestsPerSecond();
      cpu[i] = a.get(i).serverCpuMicrosPerRequest() / b.get(i).serverCpuMicrosPerRequest();
    }
    md.append(
        String.format(
            Locale.ROOT,
            "| %s/%s | %.2f (%.2f) | %.2f (%.2f) |%n",
            top.label,
            bottom.label,
            median(a, PhaseResult::requestsPerSecond) / median(b, PhaseResult::requestsPerSecond),
            median(tput),
            median(a, PhaseResult::serverCpuMicrosPerRequest)
                / median(b, PhaseResult::serverCpuMicrosPerRequest),
            median(cpu)));
  }

  static List<PhaseResult> of(List<PhaseResult> results, Shape shape) {
    return results.stream().filter(r -> r.shape() == shape).toList();
  }

  static double median(List<PhaseResult> rs, java.util.function.ToDoubleFunction<PhaseResult> f) {
    return median(rs.stream().mapToDouble(f).toArray());
  }

  static double median(double[] values) {
    double[] v = values.clone();
    Arrays.sort(v);
    int n = v.length;
    return n == 0 ? Double.NaN : n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }

  // ---- the machine ----------------------------------------------------------------------------

  /** utime + stime of a process, all its threads, in clock ticks. */
  static long cpuTicks(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
      // The command name may hold spaces; the fields after it are fixed. Field 14 is utime,
      // 15 stime; after the ')' the first field is the 3rd (state).
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
    try {
      Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
      if (p.waitFor() == 0) {
        return Long.parseLong(out);
      }
    } catch (IOException | InterruptedException | NumberFormatException e) {
      // Linux has used 100 everywhere for a long time.
    }
    return 100;
  }

  /**
   * The Liberty server's JVM: its pid file, else the one java process whose command line runs
   * {@code ws-server.jar} for this server.
   */
  static long findServerPid(Options o) {
    Path pidFile = Path.of(o.wlp, "usr", "servers", ".pid", o.server + ".pid");
    try {
      if (Files.isRegularFile(pidFile)) {
        long pid = Long.parseLong(Files.readString(pidFile).trim());
        if (isLibertyServer(pid, o.server)) {
          return pid;
        }
        System.out.println("pid file " + pidFile + " names " + pid + ", not a running server");
      }
    } catch (IOException | NumberFormatException e) {
      System.out.println("cannot read " + pidFile + ": " + e);
    }
    List<Long> candidates =
        ProcessHandle.allProcesses()
            .map(ProcessHandle::pid)
            .filter(pid -> isLibertyServer(pid, o.server))
            .toList();
    if (candidates.size() != 1) {
      throw abort(
          "cannot tell the shop's JVM ("
              + candidates.size()
              + " Liberty server processes named "
              + o.server
              + " found: "
              + candidates
              + "); pass --pid");
    }
    System.out.println(
        "no pid file at " + pidFile + " (liberty:run does not write one); found the server's JVM");
    return candidates.get(0);
  }

  static boolean isLibertyServer(long pid, String server) {
    try {
      String[] args =
          Files.readString(Path.of("/proc/" + pid + "/cmdline"), StandardCharsets.UTF_8)
              .split("\0");
      boolean wsServer = Arrays.stream(args).anyMatch(a -> a.endsWith("ws-server.jar"));
      return wsServer && Arrays.asList(args).contains(server);
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  static void requireAlive(long pid) {
    if (!Files.exists(Path.of("/proc/" + pid + "/stat"))) {
      abort("no process " + pid);
    }
    cpuTicks(pid);
  }

  static void requireLocalhost(String baseUrl) {
    URI uri;
    try {
      uri = URI.create(baseUrl);
    } catch (IllegalArgumentException e) {
      throw fail("not a URL: " + baseUrl);
    }
    String host = uri.getHost();
    if (!"http".equals(uri.getScheme())
        || host == null
        || !(host.equals("localhost") || host.equals("127.0.0.1") || host.equals("[::1]"))) {
      fail("only http://localhost, 127.0.0.1 or [::1] may be targeted, not " + baseUrl);
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
