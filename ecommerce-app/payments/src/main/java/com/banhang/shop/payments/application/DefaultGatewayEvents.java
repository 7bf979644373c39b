package com.banhang.shop.payments.application;

import com.banhang.shop.payments.api.GatewayEventView;
import com.banhang.shop.payments.api.GatewayEvents;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** The operator's view of the processor's webhook events (see {@link GatewayEvents}). */
@ApplicationScoped
public class DefaultGatewayEvents implements GatewayEvents {

  @Inject GatewayEventStore store;
  @Inject GatewayEventProcessor processor;
  @Inject OneTransaction transaction;

  Clock clock = Clock.systemUTC();

  @Override
  public List<GatewayEventView> page(String status, int offset, int limit) {
    return store.page(status(status), Math.max(0, offset), Math.max(0, limit));
  }

  @Override
  public long count(String status) {
    return store.count(status(status));
  }

  @Override
  public List<GatewayEventView> ofPayment(String paymentId) {
    return store.ofPayment(paymentId);
  }

  @Override
  public Optional<GatewayEventView> find(String provider, String eventId) {
    if (provider == null || eventId == null) {
      return Optional.empty();
    }
    return store.find(new GatewayEventStore.Key(provider, eventId));
  }

  @Override
  public List<GatewayEventView> needingOperator(int offset, int limit) {
    return store.needingOperator(Math.max(0, offset), Math.max(0, limit));
  }

  @Override
  public long countFlaggedUnhandled() {
    return store.countFlaggedUnhandled();
  }

  @Override
  public Map<String, Long> countsByStatus() {
    Map<GatewayEventView.Status, Long> counted = store.countsByStatus();
    Map<String, Long> counts = new LinkedHashMap<>();
    for (GatewayEventView.Status status : GatewayEventView.Status.values()) {
      counts.put(status.name(), counted.getOrDefault(status, 0L));
    }
    return counts;
  }

  @Override
  public int processDue() {
    return processor.processDue();
  }

  @Override
  public boolean retry(String provider, String eventId) {
    if (!store.unpark(new GatewayEventStore.Key(provider, eventId), clock.instant())) {
      return false;
    }
    processor.processNow(provider, eventId);
    return true;
  }

  @Override
  public boolean markHandled(
      String provider, String eventId, String operator, String reason, Runnable audit) {
    return transaction.run(
        () -> {
          boolean marked =
              store.markHandled(
                  new GatewayEventStore.Key(provider, eventId), operator, reason, clock.instant());
          if (marked) {
            audit.run();
          }
          return marked;
        });
  }

  /** A status name, any case; null or blank: every status. */
  private static GatewayEventView.Status status(String name) {
    if (name == null || name.isBlank()) {
      return null;
    }
    try {
      return GatewayEventView.Status.valueOf(name.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("no such gateway event status: " + name, e);
    }
  }
}
