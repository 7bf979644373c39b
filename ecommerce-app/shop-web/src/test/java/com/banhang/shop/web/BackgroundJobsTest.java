package com.banhang.shop.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A due job is submitted to the bounded executor once: while its last run is queued or stuck (on a
 * database that hangs), its next due times submit nothing, so that neither the queue nor the pool
 * fills with copies of one job.
 */
class BackgroundJobsTest {

  private final ExecutorService executor = Executors.newFixedThreadPool(2);
  private final CountDownLatch release = new CountDownLatch(1);

  @AfterEach
  void stop() throws InterruptedException {
    release.countDown();
    executor.shutdownNow();
    executor.awaitTermination(5, TimeUnit.SECONDS);
  }

  @Test
  void aStuckRun_isNotSubmittedAgain_untilItEnds() throws Exception {
    AtomicInteger started = new AtomicInteger();
    CountDownLatch firstStarted = new CountDownLatch(1);
    BackgroundJobs.OneAtATime due =
        new BackgroundJobs.OneAtATime(
            "outbox relay",
            () -> {
              started.incrementAndGet();
              firstStarted.countDown();
              try {
                release.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            executor);

    due.run();
    assertThat(firstStarted.await(5, TimeUnit.SECONDS)).isTrue();
    for (int i = 0; i < 5; i++) {
      due.run();
    }
    // The pool has a free thread: a second copy would have started by now.
    Thread.sleep(200);
    assertThat(started).hasValue(1);

    release.countDown();
    awaitIdle(executor);
    due.run();
    awaitIdle(executor);
    assertThat(started).hasValue(2);
  }

  @Test
  void aRunThatFails_doesNotStopTheNextOne() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    BackgroundJobs.OneAtATime due =
        new BackgroundJobs.OneAtATime(
            "reconciliation",
            () -> {
              runs.incrementAndGet();
              throw new IllegalStateException("the database is down");
            },
            executor);

    due.run();
    awaitIdle(executor);
    due.run();
    awaitIdle(executor);

    assertThat(runs).hasValue(2);
  }

  /**
   * Waits until every task submitted so far has ended: a marker task behind them on each thread.
   */
  private static void awaitIdle(ExecutorService executor) throws Exception {
    CountDownLatch both = new CountDownLatch(2);
    CountDownLatch hold = new CountDownLatch(1);
    for (int i = 0; i < 2; i++) {
      executor.submit(
          () -> {
            both.countDown();
            hold.await();
            return null;
          });
    }
    assertThat(both.await(5, TimeUnit.SECONDS)).as("the pool's threads came free").isTrue();
    hold.countDown();
  }
}
