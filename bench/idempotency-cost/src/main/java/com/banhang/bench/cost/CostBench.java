package com.banhang.bench.cost;

import java.net.URI;

/**
 * What an Idempotency-Key costs the shop, per shape and per number of concurrent connections, and
 * what the retention purge does to claims under load. A benchmark, never a test: run by
 * bench/idempotency-cost/run.sh against a shop it started on loopback (see the README there). JDK
 * 17, java.net.http only (JDBC, for the purge mode's inserts, needs the PostgreSQL driver on the
 * class path).
 *
 * <p>Mode {@code cost} (default, {@link CostRun}): after a warm-up, interleaved rounds (shape order
 * and connection order rotated each round) of
 *
 * <ul>
 *   <li><b>keyed</b>: POST /api/v1/orders with a fresh UUID key: 201, not replayed;
 *   <li><b>unkeyed</b>: the same without the header (the shop's comparison-only mode
 *       idempotency.operations.orders.create.mode=optional): 201;
 *   <li><b>replay</b>: keys from a pool completed during warm-up: 201, Idempotent-Replayed: true;
 *   <li><b>conflict</b>: with the sandbox gateway slow, duplicates of a payment whose first request
 *       (the owner) is still running: 409 idempotency-key-in-use with Retry-After. Only the
 *       duplicates are measured.
 * </ul>
 *
 * <p>CPU per request counts the shop's JVM and, on PostgreSQL, every postgres process of the
 * bench's postmaster (utime + stime from /proc, children that exited included via the postmaster's
 * cutime + cstime). Any unexpected status aborts the run (exit 2); transport errors are counted,
 * and more than --max-client-errors in one phase abort it too.
 *
 * <p>Mode {@code purge} ({@link PurgeRun}, PostgreSQL only): inserts expired COMPLETED rows
 * straight through JDBC, then runs keyed creates at --purge-connections without a purge, while an
 * operator's "purge now" runs, and after it.
 *
 * <p>This class only starts a run: it reads the command line ({@link Options}), refuses any target
 * but loopback, finds the processes whose CPU is counted ({@link Machine}), bounds the run's time
 * and says how it ends: exit 0, 2 ({@link #abort}), 3 (the watchdog) or 64 ({@link #fail}). The
 * requests are {@link Shop}'s, the phases {@link Load}'s, the numbers {@link PhaseResult}'s and
 * {@link Stats}', the result {@link Report}'s.
 */
public final class CostBench {

  private CostBench() {}

  public static void main(String[] args) throws Exception {
    Options options = Options.parse(args);
    requireLoopback(options.baseUrl);
    if (options.jdbcUrl != null) {
      requireLoopbackJdbc(options.jdbcUrl);
    }
    Machine.clockTicksPerSecond = Machine.clockTicks();
    long pid = options.pid > 0 ? options.pid : Machine.findShopPid(options.server);
    long postmaster = options.pgData == null ? -1 : Machine.findPostmaster(options.pgData);
    Machine machine = new Machine(pid, postmaster);
    Shop shop = new Shop(options);
    startWatchdog(options.plannedSeconds() + 900);
    if (options.purgeMode()) {
      new PurgeRun(options, shop, machine).run();
    } else {
      new CostRun(options, shop, machine).run();
    }
    System.exit(0);
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

  /** A wrong answer or a broken run: says why on stderr and exits 2. */
  static RuntimeException abort(String message) {
    System.out.flush();
    System.err.println("ABORT: " + message);
    System.exit(2);
    return new IllegalStateException(message);
  }

  /** A wrong command line: says why and exits 64. */
  static RuntimeException fail(String message) {
    System.err.println(message);
    System.exit(64);
    return new IllegalArgumentException(message);
  }
}
