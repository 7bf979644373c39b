package com.banhang.shop.web.health;

import jakarta.enterprise.concurrent.ManagedExecutorService;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.microprofile.health.HealthCheckResponse;

/**
 * Runs one health check's probe on a managed thread and waits for it only so long: a hung database
 * or gateway must give DOWN within seconds, never a probe that hangs until the orchestrator's own
 * timeout. At most one probe of a check runs at a time, so that probes against a hung dependency do
 * not pile up threads: while one is still stuck, the next answer is DOWN at once.
 */
final class BoundedCheck {

  private final String name;
  private final Duration timeout;
  private volatile boolean probing;
  private long startedAtNanos;

  BoundedCheck(String name, Duration timeout) {
    this.name = name;
    this.timeout = timeout;
  }

  synchronized HealthCheckResponse run(
      ManagedExecutorService executor, Callable<HealthCheckResponse> probe) {
    if (probing) {
      long stuckMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedAtNanos);
      return down("the previous check has not answered for " + stuckMillis + " ms");
    }
    startedAtNanos = System.nanoTime();
    probing = true;
    Future<HealthCheckResponse> running;
    try {
      running =
          executor.submit(
              () -> {
                try {
                  return probe.call();
                } finally {
                  probing = false;
                }
              });
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

  private HealthCheckResponse down(String error) {
    return HealthCheckResponse.named(name).down().withData("error", String.valueOf(error)).build();
  }
}
