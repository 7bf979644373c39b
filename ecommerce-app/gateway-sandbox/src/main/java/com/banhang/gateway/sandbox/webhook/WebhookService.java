package com.banhang.gateway.sandbox.webhook;

import com.banhang.gateway.sandbox.charge.Charge;
import com.banhang.gateway.sandbox.charge.ChargeCommitHook;
import com.banhang.gateway.sandbox.charge.ChargeStore;
import com.banhang.gateway.sandbox.fault.WebhookFaultControl;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The sandbox's webhooks to the shop: records one event per new charge in the charge's own
 * transaction (so an event exists exactly when its charge does), with the delivery faults drawn for
 * it; delivers the due events on the server's managed scheduler; delivers an "early" event from the
 * charge call itself; and serves the replay endpoints. With no {@value ChargeWebhookSettings#URL}
 * it records nothing and sends nothing.
 */
@ApplicationScoped
public class WebhookService implements ChargeCommitHook {

  private static final Logger LOG = Logger.getLogger(WebhookService.class.getName());

  /** The most events one resend-since request queues. */
  public static final int MAX_RESEND = 1000;

  @Resource(lookup = ChargeStore.DATASOURCE)
  DataSource dataSource;

  @Resource(lookup = "java:comp/DefaultManagedScheduledExecutorService")
  ManagedScheduledExecutorService scheduler;

  @Inject ChargeWebhookConfiguration configuration;

  @Inject WebhookFaultControl faults;

  /**
   * Whether the shop's endpoint is enabled, as on a processor's dashboard: while it is disabled, a
   * new charge records no event (none is sent later either); a resend still sends. Starts as {@code
   * sandbox.webhooks.endpoint-enabled} says (default true), changed at run time through {@code PUT
   * /v1/webhooks/endpoint}.
   */
  @Inject
  @ConfigProperty(name = "sandbox.webhooks.endpoint-enabled", defaultValue = "true")
  boolean endpointEnabledAtStart;

  private final AtomicBoolean endpointEnabled = new AtomicBoolean(true);

  private final Clock clock = Clock.systemUTC();
  private ChargeWebhookSettings settings;
  private WebhookRepository repository;
  private ChargeWebhookDispatcher dispatcher;
  private WebhookEventRecorder recorder;
  private ScheduledFuture<?> polling;

  @PostConstruct
  void prepare() {
    settings = configuration.settings();
    endpointEnabled.set(endpointEnabledAtStart);
    repository = new WebhookRepository(dataSource);
    if (settings.enabled()) {
      dispatcher =
          new ChargeWebhookDispatcher(
              repository, new JdkWebhookTransport(settings.timeout()), settings, clock);
      recorder = new WebhookEventRecorder(settings, repository, faults, dispatcher);
    }
  }

  /** Creates the tables and, with webhooks on, starts the scheduled deliveries. */
  public void start() {
    repository.createSchemaIfAbsent();
    if (settings.enabled() && polling == null) {
      long interval = settings.pollInterval().toMillis();
      polling =
          scheduler.scheduleWithFixedDelay(
              this::dispatchDue, interval, interval, TimeUnit.MILLISECONDS);
    }
    LOG.info(() -> "Gateway sandbox webhooks: " + settings);
  }

  @PreDestroy
  void stop() {
    if (polling != null) {
      polling.cancel(false);
    }
  }

  /** Whether webhooks are on. */
  public boolean enabled() {
    return settings.enabled();
  }

  /** Whether new charges record events for the shop's endpoint (see {@link #enableEndpoint}). */
  public boolean endpointEnabled() {
    return endpointEnabled.get();
  }

  /**
   * Enables or disables the shop's endpoint: charges made while it is disabled record no event.
   *
   * @return the state now
   */
  public boolean enableEndpoint(boolean enabled) {
    endpointEnabled.set(enabled);
    LOG.info(() -> "Gateway sandbox webhooks: endpoint " + (enabled ? "enabled" : "disabled"));
    return enabled;
  }

  @Override
  public void inTransaction(Connection connection, Charge charge) throws SQLException {
    if (recorder != null && endpointEnabled.get()) {
      recorder.inTransaction(connection, charge);
    }
  }

  @Override
  public void afterCommit(Charge charge) {
    if (recorder == null) {
      return;
    }
    try {
      recorder.afterCommit(charge);
    } catch (RuntimeException e) {
      // The charge is committed and its answer must go out; the scheduled runs retry the event.
      LOG.log(Level.WARNING, "Early webhook of charge " + charge.id() + " failed", e);
    }
  }

  /** Events created at or after {@code since}, oldest first, with their attempts. */
  public List<WebhookEventHistory> list(Instant since, int limit) {
    List<WebhookEvent> events = repository.createdSince(since, limit);
    Map<String, List<WebhookAttempt>> attempts =
        repository.attemptsOf(events.stream().map(WebhookEvent::id).toList());
    return events.stream()
        .map(event -> new WebhookEventHistory(event, attempts.get(event.id())))
        .toList();
  }

  /** One event with its attempts. */
  public Optional<WebhookEventHistory> find(String eventId) {
    return repository
        .findById(eventId)
        .map(
            event ->
                new WebhookEventHistory(
                    event, repository.attemptsOf(List.of(event.id())).get(event.id())));
  }

  /**
   * Sends an event again now, on the caller's thread, and answers with its history.
   *
   * @return empty for an unknown event
   * @throws IllegalStateException when webhooks are off
   */
  public Optional<WebhookEventHistory> resend(String eventId) {
    requireEnabled();
    return dispatcher.resend(eventId).flatMap(attempt -> find(eventId));
  }

  /**
   * Queues a resend of every event created at or after {@code since} (at most {@value #MAX_RESEND},
   * oldest first) on the managed executor.
   *
   * @return the ids queued, in the order they will be sent
   * @throws IllegalStateException when webhooks are off
   */
  public List<String> resendSince(Instant since) {
    requireEnabled();
    List<String> ids =
        repository.createdSince(since, MAX_RESEND).stream().map(WebhookEvent::id).toList();
    if (!ids.isEmpty()) {
      scheduler.execute(() -> resendAll(ids));
    }
    return ids;
  }

  private void resendAll(List<String> ids) {
    for (String id : ids) {
      try {
        dispatcher.resend(id);
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "Resend of webhook event " + id + " failed", e);
      }
    }
  }

  private void dispatchDue() {
    try {
      dispatcher.dispatchDue();
    } catch (RuntimeException e) {
      // A failing run must not end the schedule: the next run tries again.
      LOG.log(Level.WARNING, "Webhook dispatch failed", e);
    }
  }

  private void requireEnabled() {
    if (!settings.enabled()) {
      throw new IllegalStateException(
          "webhooks are off: " + ChargeWebhookSettings.URL + " is not set");
    }
  }
}
