package com.banhang.subscriber;

import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Every delivery this subscriber was sent, as it arrived, in memory: what a developer watches and
 * what the integration tests read to see retries carry the same {@code webhook-id}. Also the
 * failures a test asks it to answer with, to make the shop retry.
 */
@ApplicationScoped
public class DeliveryLog {

  /** One delivery: its headers' id and timestamp, and what this subscriber answered. */
  public record Delivery(String webhookId, String timestamp, int answered, Instant at) {}

  private final List<Delivery> deliveries = new ArrayList<>();
  private final AtomicInteger failuresLeft = new AtomicInteger();
  private volatile int failureStatus = 500;
  private volatile String failingMatch;

  public synchronized void add(Delivery delivery) {
    deliveries.add(delivery);
  }

  public synchronized List<Delivery> of(String webhookId) {
    return deliveries.stream()
        .filter(d -> webhookId == null || webhookId.equals(d.webhookId()))
        .toList();
  }

  /**
   * Answers the next {@code count} deliveries whose body contains {@code matching} (any when null)
   * with {@code status} instead of handling them.
   */
  public void failNext(int count, int status, String matching) {
    failureStatus = status;
    failingMatch = matching;
    failuresLeft.set(count);
  }

  /** The status to fail the delivery of {@code body} with, or 0 to handle it. */
  public int failureFor(String body) {
    String matching = failingMatch;
    if (matching != null && !body.contains(matching)) {
      return 0;
    }
    return failuresLeft.getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0 ? failureStatus : 0;
  }

  public synchronized List<Delivery> all() {
    return new ArrayList<>(deliveries);
  }
}
