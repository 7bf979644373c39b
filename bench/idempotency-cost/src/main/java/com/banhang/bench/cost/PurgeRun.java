package com.banhang.bench.cost;

import static com.banhang.bench.cost.CostBench.abort;
import static com.banhang.bench.cost.CostBench.fail;

import com.banhang.bench.cost.Load.Window;
import com.banhang.bench.cost.Options.Shape;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Mode purge (PostgreSQL only): expired COMPLETED rows inserted straight through JDBC, then keyed
 * creates at --purge-connections without a purge, while an operator's "purge now" runs (only the
 * requests started between the purge's request and its answer), and after it; then what the
 * purge-run record says and how many expired rows are left (any left aborts).
 */
final class PurgeRun {

  final Options options;
  final Shop shop;
  final Machine machine;
  final Load load;
  final Report report;

  PurgeRun(Options options, Shop shop, Machine machine) {
    this.options = options;
    this.shop = shop;
    this.machine = machine;
    this.load = new Load(options, shop, machine);
    this.report = new Report(options, machine);
  }

  void run() throws Exception {
    String loadStart = Machine.loadAverage();
    String dateStart = Machine.dateU();
    System.out.printf(
        Locale.ROOT,
        "CostBench purge %s on %s: shop pid %d, postmaster %d; %d expired rows for tenant %s;"
            + " keyed creates at %d connections%n",
        dateStart,
        options.baseUrl,
        machine.shopPid,
        machine.postmasterPid,
        options.purgeRows,
        options.purgeTenant,
        options.purgeConnections);
    shop.requireHealthy();
    shop.resetFaults();
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
        Locale.ROOT,
        "inserted %d expired rows in %.1f s (with ANALYZE, CHECKPOINT)%n",
        inserted,
        insertSeconds);

    // Warm-up: the same shape.
    long warmupDeadline = System.nanoTime() + options.warmupSeconds * 1_000_000_000L;
    while (warmupDeadline - System.nanoTime() > 2_000_000_000L) {
      long length =
          Math.min(
              warmupDeadline - System.nanoTime(), options.warmupSegmentSeconds * 1_000_000_000L);
      Report.print(
          "warm-up", load.runLoad(Shape.KEYED, options.purgeConnections, length, "keyed", null));
    }

    List<PhaseResult> phases = new ArrayList<>();
    PhaseResult without =
        load.runLoad(
            Shape.KEYED,
            options.purgeConnections,
            0,
            "without purge",
            new Window(options.purgeBaselineSeconds * 1_000_000_000L));
    Report.print("no purge", without);
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
                Load.sleepUntil(window.loadStart + 1_000_000_000L);
                HttpRequest purge = shop.purgeRequest();
                window.ticksAtOpen = machine.serverTicks();
                long sent = System.nanoTime();
                window.opened = sent;
                HttpResponse<byte[]> r = Shop.send(shop.ownerClient, purge);
                long answered = System.nanoTime();
                window.ticksAtClose = machine.serverTicks();
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
        load.runLoad(Shape.KEYED, options.purgeConnections, 0, "during purge", window);
    purger.join();
    if (purgeFailure.get() != null) {
      throw abort("the purge request failed: " + purgeFailure.get());
    }
    HttpResponse<byte[]> answer = purgeAnswer.get();
    if (answer.statusCode() != 200) {
      throw abort("the purge answered " + answer.statusCode() + ": " + Shop.text(answer));
    }
    Report.print("purge", with);
    phases.add(with);
    String purgeMessage = Shop.text(answer);
    System.out.println("purge answered: " + purgeMessage);

    if (options.purgeAfterSeconds > 0) {
      PhaseResult after =
          load.runLoad(
              Shape.KEYED,
              options.purgeConnections,
              0,
              "after purge",
              new Window(options.purgeAfterSeconds * 1_000_000_000L));
      Report.print("after", after);
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

    String loadEnd = Machine.loadAverage();
    String dateEnd = Machine.dateU();
    String memory = machine.shopMemory();
    System.out.println(memory);
    report.show(
        report.purgeReport(
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
            memory));
    if (left > 0) {
      throw abort(
          left
              + " expired rows of "
              + options.purgeTenant
              + " survived one purge run: raise IDEMPOTENCY_RETENTION_MAX_BATCHES");
    }
  }
}
