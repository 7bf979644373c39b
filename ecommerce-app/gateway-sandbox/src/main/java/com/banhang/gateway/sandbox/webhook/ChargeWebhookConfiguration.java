package com.banhang.gateway.sandbox.webhook;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The webhook settings from MicroProfile Config ({@code sandbox.webhooks.*}). Every property is
 * optional; without {@value ChargeWebhookSettings#URL} there are no webhooks.
 */
@ApplicationScoped
public class ChargeWebhookConfiguration {

  @Inject
  @ConfigProperty(name = ChargeWebhookSettings.URL)
  Optional<String> url;

  /** Read as text and split here, so that a secret is never echoed by a converter's error. */
  @Inject
  @ConfigProperty(name = ChargeWebhookSettings.SECRETS)
  Optional<String> secrets;

  @Inject
  @ConfigProperty(name = ChargeWebhookSettings.TIMEOUT, defaultValue = "PT5S")
  Duration timeout;

  @Inject
  @ConfigProperty(name = ChargeWebhookSettings.POLL_INTERVAL, defaultValue = "PT1S")
  Duration pollInterval;

  @Inject
  @ConfigProperty(name = ChargeWebhookSettings.RETRY_INITIAL, defaultValue = "PT5S")
  Duration retryInitial;

  @Inject
  @ConfigProperty(name = ChargeWebhookSettings.RETRY_MAX, defaultValue = "PT10M")
  Duration retryMax;

  @Inject
  @ConfigProperty(name = ChargeWebhookSettings.MAX_ATTEMPTS, defaultValue = "15")
  int maxAttempts;

  /**
   * The configured settings.
   *
   * @throws InvalidWebhookSettingsException when a value is wrong
   */
  public ChargeWebhookSettings settings() {
    return new ChargeWebhookSettings(
        ChargeWebhookSettings.parseUrl(url.orElse(null)),
        ChargeWebhookSettings.splitSecrets(secrets.orElse(null)),
        timeout,
        pollInterval,
        retryInitial,
        retryMax,
        maxAttempts);
  }
}
