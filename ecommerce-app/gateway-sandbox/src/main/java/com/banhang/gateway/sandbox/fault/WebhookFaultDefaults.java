package com.banhang.gateway.sandbox.fault;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The webhook fault settings configured through MicroProfile Config: what the sandbox starts with
 * and what {@code DELETE /v1/faults/webhooks} returns to. Every property is optional; the defaults
 * inject nothing.
 */
@ApplicationScoped
public class WebhookFaultDefaults {

  public static final String DELAY_PROBABILITY = "sandbox.webhooks.faults.delay-probability";
  public static final String DELAY_MIN_MS = "sandbox.webhooks.faults.delay-min-ms";
  public static final String DELAY_MAX_MS = "sandbox.webhooks.faults.delay-max-ms";
  public static final String DUPLICATE_PROBABILITY =
      "sandbox.webhooks.faults.duplicate-probability";
  public static final String REORDER_PROBABILITY = "sandbox.webhooks.faults.reorder-probability";
  public static final String REORDER_MAX_HOLD_MS = "sandbox.webhooks.faults.reorder-max-hold-ms";
  public static final String LOSE_PROBABILITY = "sandbox.webhooks.faults.lose-probability";
  public static final String EARLY_PROBABILITY = "sandbox.webhooks.faults.early-probability";
  public static final String SEED = "sandbox.webhooks.faults.seed";

  @Inject
  @ConfigProperty(name = DELAY_PROBABILITY, defaultValue = "0")
  double delayProbability;

  @Inject
  @ConfigProperty(name = DELAY_MIN_MS, defaultValue = "1000")
  long delayMinMs;

  @Inject
  @ConfigProperty(name = DELAY_MAX_MS, defaultValue = "60000")
  long delayMaxMs;

  @Inject
  @ConfigProperty(name = DUPLICATE_PROBABILITY, defaultValue = "0")
  double duplicateProbability;

  @Inject
  @ConfigProperty(name = REORDER_PROBABILITY, defaultValue = "0")
  double reorderProbability;

  @Inject
  @ConfigProperty(name = REORDER_MAX_HOLD_MS, defaultValue = "60000")
  long reorderMaxHoldMs;

  @Inject
  @ConfigProperty(name = LOSE_PROBABILITY, defaultValue = "0")
  double loseProbability;

  @Inject
  @ConfigProperty(name = EARLY_PROBABILITY, defaultValue = "0")
  double earlyProbability;

  @Inject
  @ConfigProperty(name = SEED, defaultValue = "42")
  long seed;

  /**
   * The configured settings.
   *
   * @throws InvalidFaultSettingsException when a configured value is out of range
   */
  public WebhookFaultSettings settings() {
    return new WebhookFaultSettings(
        delayProbability,
        delayMinMs,
        delayMaxMs,
        duplicateProbability,
        reorderProbability,
        reorderMaxHoldMs,
        loseProbability,
        earlyProbability,
        seed);
  }
}
