package com.banhang.shop.web;

import com.banhang.idempotency.IdempotencyEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.Locale;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

/**
 * Counts every keyed request by operation and outcome at /metrics as {@code
 * idempotency_requests_total{operation="orders.create",outcome="replayed"}}: the rates of new,
 * replayed, conflicting and in-progress requests of seed 000 s13, and duplicates blocked per
 * operation (replayed + in_progress + key_reused).
 */
@ApplicationScoped
public class IdempotencyMetrics {

  private static final Metadata REQUESTS =
      Metadata.builder()
          .withName("idempotency.requests")
          .withDescription("Keyed requests by operation and by what the idempotency layer did")
          .build();

  @Inject MetricRegistry registry;

  void count(@Observes IdempotencyEvent event) {
    registry
        .counter(
            REQUESTS,
            new Tag("operation", event.operation()),
            new Tag("outcome", event.outcome().name().toLowerCase(Locale.ROOT)))
        .inc();
  }
}
