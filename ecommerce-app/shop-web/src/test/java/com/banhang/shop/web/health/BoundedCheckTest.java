package com.banhang.shop.web.health;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponse.Status;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A check's probe runs on a thread of its own, is waited for only so long, and never twice at once;
 * in particular it does not depend on a shared pool whose threads are all busy, which is what
 * starved readiness while the database hung (docs/observability.md).
 */
class BoundedCheckTest {

  private final CountDownLatch release = new CountDownLatch(1);
  private final List<Thread> made = new CopyOnWriteArrayList<>();
  private final ThreadFactory threads =
      task -> {
        Thread thread = new Thread(task);
        made.add(thread);
        return thread;
      };

  @BeforeAll
  static void responsesWithoutAServer() {
    HealthCheckResponse.setResponseProvider(IdempotencyEnforcedHealthCheckTest.Builder::new);
  }

  @AfterEach
  void releaseHungProbes() {
    release.countDown();
  }

  @Test
  void aProbeRunsOnAThreadOfItsOwn_evenWhenEverySharedThreadIsBusy() throws Exception {
    ExecutorService shared = Executors.newFixedThreadPool(1);
    try {
      shared.submit(
          () -> {
            release.await();
            return null;
          });
      BoundedCheck check = new BoundedCheck("database", Duration.ofSeconds(2));
      List<String> ranOn = new CopyOnWriteArrayList<>();

      HealthCheckResponse answer =
          check.run(
              threads,
              () -> {
                ranOn.add(Thread.currentThread().getName());
                return check.up("fine");
              });

      assertThat(answer.getStatus()).isEqualTo(Status.UP);
      assertThat(ranOn).containsExactly("health probe: database");
      assertThat(made).hasSize(1);
    } finally {
      release.countDown();
      shared.shutdownNow();
    }
  }

  @Test
  void aHungProbe_isDownWithinTheBound_andTheNextCallsAreDownAtOnce_withoutASecondProbe()
      throws Exception {
    BoundedCheck check = new BoundedCheck("database", Duration.ofMillis(300));
    AtomicInteger probes = new AtomicInteger();

    long started = System.nanoTime();
    HealthCheckResponse first =
        check.run(
            threads,
            () -> {
              probes.incrementAndGet();
              release.await();
              return check.up("answered at last");
            });
    long firstMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);

    assertThat(first.getStatus()).isEqualTo(Status.DOWN);
    assertThat(firstMillis).isGreaterThanOrEqualTo(300).isLessThan(5_000);

    HealthCheckResponse second = check.run(threads, () -> check.up("a second probe ran"));
    assertThat(second.getStatus()).isEqualTo(Status.DOWN);
    assertThat(probes).hasValue(1);
    assertThat(made).hasSize(1);

    release.countDown();
    made.get(0).join(5_000);
    HealthCheckResponse afterwards = check.run(threads, () -> check.up("the dependency is back"));
    assertThat(afterwards.getStatus()).isEqualTo(Status.UP);
    assertThat(made).hasSize(2);
  }

  @Test
  void theCallAfterAnAnsweredProbe_probesAgain_neverFindsTheLastOneStillRunning() {
    BoundedCheck check = new BoundedCheck("gateway", Duration.ofSeconds(2));
    ThreadFactory plain = Thread::new;

    for (int i = 0; i < 2_000; i++) {
      HealthCheckResponse answer = check.run(plain, () -> check.up("fine"));
      assertThat(answer.getStatus()).as("call %d", i).isEqualTo(Status.UP);
    }
  }

  @Test
  void aProbeThatThrows_isDown_andDoesNotBlockTheNext() {
    BoundedCheck check = new BoundedCheck("gateway", Duration.ofSeconds(2));

    HealthCheckResponse failed =
        check.run(
            threads,
            () -> {
              throw new IllegalStateException("connection refused");
            });
    assertThat(failed.getStatus()).isEqualTo(Status.DOWN);

    // At once, without waiting for the failed probe's thread to end: the check is free before
    // the failure is handed over.
    assertThat(check.run(threads, () -> check.up("fine")).getStatus()).isEqualTo(Status.UP);
  }
}
