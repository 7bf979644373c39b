package com.banhang.events.webhooks;

import com.banhang.events.EventEnvelope;
import com.banhang.events.EventTransport;
import com.banhang.events.OutboxEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The relay's transport to subscribers' webhooks. It does no HTTP: it records one delivery per
 * subscriber endpoint that receives the event's tenant, in a short transaction of its own, and
 * completes; the {@link WebhookDispatcher} sends them. So a slow or failing subscriber never holds
 * back the outbox (nor the aggregate's next events), and each subscriber is retried on its own.
 *
 * <p>Handing the same event over again (the relay publishes at least once) adds nothing.
 */
@ApplicationScoped
public class WebhookTransport implements EventTransport {

  @Inject WebhookConfiguration configuration;
  @Inject WebhookDeliveryStore store;

  @Override
  public String name() {
    return "webhooks";
  }

  /** Enabled when at least one endpoint is usable and {@code events.source} is set. */
  @Override
  public boolean enabled() {
    return configuration.settings().enabled();
  }

  /**
   * Records the event's deliveries. Runs outside any JTA transaction: the store commits its own
   * local one, and the deliveries exist once the stage completes.
   */
  @Override
  @Transactional(Transactional.TxType.NOT_SUPPORTED)
  public CompletionStage<Void> publish(OutboxEvent event) {
    try {
      WebhookSettings settings = configuration.settings();
      List<String> endpoints =
          settings.receiving(event.tenantId()).stream().map(WebhookEndpoint::name).toList();
      if (endpoints.isEmpty()) {
        return CompletableFuture.completedFuture(null);
      }
      String source =
          settings
              .source()
              .orElseThrow(() -> new IllegalStateException("events.source is not set"));
      store.record(
          event.id(),
          event.tenantId(),
          EventEnvelope.json(event, source),
          endpoints,
          settings.schedule().first());
      return CompletableFuture.completedFuture(null);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }
}
