package com.banhang.shop.client;

import java.time.Duration;
import java.time.Instant;

/** The real time. */
enum SystemRetryClock implements RetryClock {
  INSTANCE;

  @Override
  public long nanoTime() {
    return System.nanoTime();
  }

  @Override
  public Instant now() {
    return Instant.now();
  }

  @Override
  public void sleep(Duration delay) throws InterruptedException {
    if (!delay.isNegative() && !delay.isZero()) {
      Thread.sleep(delay.toMillis(), delay.toNanosPart() % 1_000_000);
    }
  }
}
