package com.banhang.bench.cost;

import static com.banhang.bench.cost.CostBench.fail;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The command line and the run plan it makes: which mode, which shapes at which connection counts,
 * for how long, against which shop; {@link #plannedSeconds()} is what the watchdog allows.
 */
final class Options {

  /** What one request of a phase is. */
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

  boolean purgeMode() {
    return mode.equals("purge");
  }

  /** One HTTP client per connection: as many as the largest phase needs. */
  int maxConnections() {
    int max = purgeConnections;
    for (int c : connections) {
      max = Math.max(max, c);
    }
    return max;
  }

  /** About how long the run takes, without the orders of the conflict phases. */
  long plannedSeconds() {
    if (purgeMode()) {
      return warmupSeconds + purgeBaselineSeconds + purgeAfterSeconds + purgeTimeoutSeconds + 600;
    }
    return warmupSeconds + (long) rounds * shapes.size() * connections.length * (roundSeconds + 5);
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
        java -cp target/idempotency-cost/build/classes[:postgresql.jar] \\
          com.banhang.bench.cost.CostBench [options]
        (normally started by bench/idempotency-cost/run.sh, which passes the right ones)
          --mode cost|purge          cost (default): the shapes below; purge: retention under load
          --url URL                  the shop, loopback only (http://127.0.0.1:9380)
          --warmup S                 warm-up seconds (120), in segments of --warmup-segment S (10)
          --rounds N                 interleaved rounds (5)
          --round-seconds S          seconds per shape and connection count per round (15)
          --connections LIST         concurrent connections (1,16,64)
          --shapes LIST              keyed,unkeyed,replay,conflict (all)
          --skip-unkeyed             leave the unkeyed shape out (a shop without operation modes)
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
