package com.banhang.bench.cost;

import static com.banhang.bench.cost.CostBench.abort;

import com.banhang.bench.cost.Options.Shape;
import com.banhang.bench.cost.Shop.PooledKey;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Mode cost: the checks before measuring (healthy, no fault left, the unkeyed mode present), the
 * warm-up (the replay pool, payments at full speed, segments cycling through the shapes), then the
 * interleaved rounds, the shape order and the connection order rotated each round.
 */
final class CostRun {

  final Options options;
  final Shop shop;
  final Machine machine;
  final Load load;
  final Report report;

  CostRun(Options options, Shop shop, Machine machine) {
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
        "CostBench %s on %s: shop pid %d, postmaster %s; shapes %s, connections %s; warm-up %d s;"
            + " %d rounds x %d s; planned about %d s%n",
        dateStart,
        options.baseUrl,
        machine.shopPid,
        machine.postmasterPid > 0 ? Long.toString(machine.postmasterPid) : "none (H2 in the JVM)",
        options.shapes.stream().map(s -> s.label).toList(),
        Arrays.toString(options.connections),
        options.warmupSeconds,
        options.rounds,
        options.roundSeconds,
        options.plannedSeconds());
    shop.requireHealthy();
    shop.resetFaults();
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
          PhaseResult r = load.runPhase(shape, conns, options.roundSeconds * 1_000_000_000L);
          results.add(r);
          Report.print("round " + (round + 1), r);
        }
      }
    }
    String loadEnd = Machine.loadAverage();
    String dateEnd = Machine.dateU();
    String memory = machine.shopMemory();
    System.out.println(memory);
    report.show(report.costReport(results, dateStart, dateEnd, loadStart, loadEnd, memory));
  }

  void probeUnkeyed() throws IOException {
    HttpResponse<byte[]> r = shop.send(0, shop.createRequest(null, Shop.ORDER_BODY));
    if (r.statusCode() == 400 && Shop.text(r).contains("idempotency-key-missing")) {
      throw abort(
          "the shop answers an unkeyed create with 400 idempotency-key-missing: this build has"
              + " no idempotency.operations.orders.create.mode=optional (or it is not set);"
              + " pass --skip-unkeyed to measure the other shapes");
    }
    Shop.expect(r, 201, false, "unkeyed probe");
  }

  void buildPool() throws Exception {
    long t0 = System.nanoTime();
    int n = Math.min(16, shop.clients.length);
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
                    HttpResponse<byte[]> r =
                        shop.send(worker, shop.createRequest(key, Shop.ORDER_BODY));
                    Shop.expect(r, 201, false, "pool");
                    slices[worker][i] = new PooledKey(key, Shop.ORDER_BODY);
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
      shop.pool.addAll(Arrays.asList(slice));
    }
    PooledKey first = shop.pool.get(0);
    Shop.expect(
        shop.send(0, shop.createRequest(first.key(), first.body())), 201, true, "pool check");
    System.out.printf(
        Locale.ROOT,
        "pool: %d completed keys in %.1f s%n",
        shop.pool.size(),
        (System.nanoTime() - t0) / 1e9);
  }

  /**
   * The first payments of a fresh server are slow (the gateway's REST client, cold code: 3.3 s seen
   * for the first one): with the sandbox slow on top, an owner would outlast the gateway read
   * timeout and end 504. So a few payments at full speed first, one at a time.
   */
  void warmPayments() throws Exception {
    long t0 = System.nanoTime();
    for (int i = 0; i < 20; i++) {
      String orderId = shop.newOrder();
      HttpResponse<byte[]> r =
          shop.send(0, shop.paymentRequest(orderId, UUID.randomUUID().toString(), 60));
      Shop.expect(r, 201, false, "warm-up payment");
    }
    System.out.printf(
        Locale.ROOT, "payments warmed up: 20 in %.1f s%n", (System.nanoTime() - t0) / 1e9);
  }

  /** Segments of --warmup-segment, cycling through the shapes and connection counts. */
  void warmUp(long deadline) throws Exception {
    int segment = 0;
    while (true) {
      long left = deadline - System.nanoTime();
      if (left < 2_000_000_000L) {
        break;
      }
      int i = segment++;
      Shape shape = options.shapes.get(i % options.shapes.size());
      int conns = options.connections[(i / options.shapes.size()) % options.connections.length];
      long length = Math.min(left, options.warmupSegmentSeconds * 1_000_000_000L);
      Report.print("warm-up", load.runPhase(shape, conns, length));
    }
  }
}
