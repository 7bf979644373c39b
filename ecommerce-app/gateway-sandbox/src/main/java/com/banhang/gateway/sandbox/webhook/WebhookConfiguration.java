package com.banhang.gateway.sandbox.webhook;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The webhook settings from MicroProfile Config ({@code sandbox.webhooks.*}). Every property is
 * optional; without {@value WebhookSettings#URL} there are no webhooks.
 */
@ApplicationScoped
public class WebhookConfiguration {

  @Inject
  @ConfigProperty(name = WebhookSettings.URL)
  Optional<String> url;

  /** Read as text and split here, so that a secret is never echoed by a converter's error. */
  @Inject
  @ConfigProperty(name = WebhookSettings.SECRETS)
  Optional<String> secrets;

  @Inject
  @ConfigProperty(name = WebhookSettings.TIMEOUT, defaultValue = "PT5S")
  Duration timeout;

  @Inject
  @ConfigProperty(name = WebhookSettings.POLL_INTERVAL, defaultValue = "PT1S")
  Duration pollInterval;

  @Inject
  @ConfigProperty(name = WebhookSettings.RETRY_INITIAL, defaultValue = "PT5S")
  Duration retryInitial;

  @Inject
  @ConfigProperty(name = WebhookSettings.RETRY_MAX, defaultValue = "PT10M")
  Duration retryMax;

  @Inject
  @ConfigProperty(name = WebhookSettings.MAX_ATTEMPTS, defaultValue = "15")
  int maxAttempts;

  /**
   * The configured settings.
   *
   * @throws InvalidWebhookSettingsException when a value is wrong
   */
  public WebhookSettings settings() {
    return new WebhookSettings(
        WebhookSettings.parseUrl(url.orElse(null)),
        WebhookSettings.splitSecrets(secrets.orElse(null)),
        timeout,
        pollInterval,
        retryInitial,
        retryMax,
        maxAttempts);
  }
}
