package com.banhang.shop.web.health;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.health.HealthCheckResponse;

/**
 * Runs one health check's probe on a managed thread and waits for it only so long: a hung database
 * or gateway must give DOWN within seconds, never a probe that hangs until the orchestrator's own
 * timeout. At most one probe of a check runs at a time, so that probes against a hung dependency do
 * not pile up threads: while one is still stuck, the next answer is DOWN at once.
 *
 * <p>Each probe gets a thread of its own from the server's managed thread factory, not a task on
 * the managed executor: Liberty runs executor tasks on the same pool as the HTTP requests and the
 * background jobs, and when a frozen database held every thread of that pool, a probe waited about
 * 9 s for the pool to grow before it could even start (docs/observability.md, "Readiness while the
 * database hangs"). A thread per probe costs little: one at most per check at any time.
 *
 * <p>Answers carry the check's name and status only: {@code /health} is open to anyone, so why a
 * check is DOWN (exception text, URLs, product versions) is logged for operators instead, once per
 * change of status (docs/observability.md).
 */
final class BoundedCheck {

  private static final Logger LOG = Logger.getLogger(BoundedCheck.class.getName());

  private final String name;
  private final Duration timeout;
  private volatile boolean probing;
  private long startedAtNanos;
  private volatile HealthCheckResponse.Status lastLogged;

  BoundedCheck(String name, Duration timeout) {
    this.name = name;
    this.timeout = timeout;
  }

  synchronized HealthCheckResponse run(ThreadFactory threads, Callable<HealthCheckResponse> probe) {
    if (probing) {
      long stuckMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedAtNanos);
      return down("the previous check has not answered for " + stuckMillis + " ms");
    }
    startedAtNanos = System.nanoTime();
    probing = true;
    CompletableFuture<HealthCheckResponse> running = new CompletableFuture<>();
    try {
      Thread thread = threads.newThread(() -> probeOnce(probe, running));
      thread.setName("health probe: " + name);
      thread.setDaemon(true);
      thread.start();
    } catch (RuntimeException e) {
      probing = false;
      throw e;
    }
    try {
      return running.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      // Not cancelled: interrupting a driver mid-call can break a pooled connection. The probe
      // ends by its own timeouts; until then the next checks answer DOWN at once.
      return down("no answer within " + timeout.toMillis() + " ms");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      return down(cause.getClass().getSimpleName() + ": " + cause.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return down("interrupted");
    }
  }

  /**
   * Runs the probe and only then hands its answer over: the check is free again before its caller
   * can return, so that the next call probes instead of finding this one still running.
   */
  private void probeOnce(
      Callable<HealthCheckResponse> probe, CompletableFuture<HealthCheckResponse> answer) {
    HealthCheckResponse response = null;
    Throwable failure = null;
    try {
      response = probe.call();
    } catch (Exception | Error e) {
      failure = e;
    } finally {
      probing = false;
    }
    if (failure == null) {
      answer.complete(response);
    } else {
      answer.completeExceptionally(failure);
    }
  }

  /** UP, without data; {@code detail} is logged when the check was not UP before. */
  HealthCheckResponse up(String detail) {
    if (lastLogged != HealthCheckResponse.Status.UP) {
      lastLogged = HealthCheckResponse.Status.UP;
      LOG.info(() -> "health check " + name + " is UP: " + detail);
    }
    return HealthCheckResponse.named(name).up().build();
  }

  /** DOWN, without data; {@code reason} is logged when the check was not DOWN before. */
  HealthCheckResponse down(String reason) {
    if (lastLogged != HealthCheckResponse.Status.DOWN) {
      lastLogged = HealthCheckResponse.Status.DOWN;
      LOG.log(Level.WARNING, "health check {0} is DOWN: {1}", new Object[] {name, reason});
    }
    return HealthCheckResponse.named(name).down().build();
  }
}
