package com.banhang.bench.cost;

import static com.banhang.bench.cost.CostBench.abort;

import com.banhang.bench.cost.Options.Shape;
import com.banhang.bench.cost.Shop.WrongAnswer;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The load and its timing: {@code conns} workers, one connection each, sending one shape as fast as
 * they are answered for one phase; each answer checked, each latency kept, the server's and the
 * client's CPU read at the phase's start and end. The conflict shape has its own loop around a slow
 * owner; the purge mode measures only the requests started inside a {@link Window}.
 */
final class Load {

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

  /** A payment whose first request runs at the slow gateway; duplicates go in its window. */
  record Owner(String key, String orderId, long sent, long activeFrom, long activeUntil) {}

  final Options options;
  final Shop shop;
  final Machine machine;

  Load(Options options, Shop shop, Machine machine) {
    this.options = options;
    this.shop = shop;
    this.machine = machine;
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
  PhaseResult runLoad(Shape shape, int conns, long lengthNanos, String label, Window window)
      throws Exception {
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
                  HttpRequest request = shop.requestFor(shape);
                  long t0 = System.nanoTime();
                  try {
                    HttpResponse<byte[]> response = shop.send(worker, request);
                    long latency = System.nanoTime() - t0;
                    shop.check(shape, response);
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
    long serverBefore = machine.serverTicks();
    long clientBefore = Machine.clientTicks();
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
    long serverCpu = machine.serverTicks() - serverBefore;
    long clientCpu = Machine.clientTicks() - clientBefore;
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
   * The 409 shape: the sandbox made slow, a new owner payment every (latency - head start - margin)
   * so that one owner is always inside its window [start + head start, start + latency - margin],
   * and {@code conns} workers sending duplicates of the current owner's key. Only the duplicates
   * are measured; CPU includes the owners' (a few requests). Every owner must end 201.
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
      orders.add(shop.newOrder());
    }
    shop.setFaults("{\"latencyMs\":" + options.conflictLatencyMs + "}");
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
                          shop.paymentRequest(o.orderId(), o.key(), options.requestTimeoutSeconds);
                      long t0 = System.nanoTime();
                      try {
                        HttpResponse<byte[]> response = shop.send(worker, request);
                        long answered = System.nanoTime();
                        if (response.statusCode() == 201
                            && Shop.replayed(response)
                            && answered >= o.sent() + latency) {
                          // Sent inside the window but answered once the owner could have
                          // finished (the gateway holds it for the whole latency): a replay is
                          // then right. Queued too long; counted, not measured. A replay before
                          // that moment, or any other answer but the 409, is wrong.
                          late.incrementAndGet();
                          continue;
                        }
                        shop.check(Shape.CONFLICT, response);
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
      long serverBefore = machine.serverTicks();
      long clientBefore = Machine.clientTicks();
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
            shop.ownerClient.sendAsync(
                shop.paymentRequest(orderId, key, options.requestTimeoutSeconds + 20),
                HttpResponse.BodyHandlers.ofByteArray()));
        Owner owner = new Owner(key, orderId, sent, sent + headStart, sent + latency - margin);
        // Duplicates only once the owner's claim is committed: under load the owner itself may
        // queue longer than its head start, and a duplicate claiming first would become the owner.
        if (shop.awaitClaim(key, owner.activeUntil() - 100_000_000L)) {
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
          Shop.expect(r, 201, false, "owner payment");
        } catch (WrongAnswer e) {
          throw abort("WRONG ANSWER for an owner payment: " + e.getMessage());
        }
      }
      long serverCpu = machine.serverTicks() - serverBefore;
      long clientCpu = Machine.clientTicks() - clientBefore;
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
      shop.resetFaults();
    }
  }

  static void sleepUntil(long nanoTime) throws InterruptedException {
    long left;
    while ((left = nanoTime - System.nanoTime()) > 0) {
      Thread.sleep(Math.max(1, left / 1_000_000), 0);
    }
  }
}
