package com.banhang.gateway.sandbox.fault;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The fault settings configured through MicroProfile Config: what the sandbox starts with and what
 * {@code DELETE /v1/faults} returns to. Every property is optional; the defaults inject nothing.
 */
@ApplicationScoped
public class FaultDefaults {

  public static final String LATENCY_MS = "gateway.faults.latency-ms";
  public static final String SLOW_PROBABILITY = "gateway.faults.slow-probability";
  public static final String SLOW_LATENCY_MS = "gateway.faults.slow-latency-ms";
  public static final String LATENCY_PHASE = "gateway.faults.latency-phase";
  public static final String DROP_RESPONSE_PROBABILITY = "gateway.faults.drop-response-probability";
  public static final String DROP_MODE = "gateway.faults.drop-mode";
  public static final String ERROR_BEFORE_CHARGE_PROBABILITY =
      "gateway.faults.error-before-charge-probability";
  public static final String LOSE_REQUEST_PROBABILITY = "gateway.faults.lose-request-probability";
  public static final String SEED = "gateway.faults.seed";
  public static final String FAULTS_ON_REPLAYS = "gateway.faults.faults-on-replays";

  @Inject
  @ConfigProperty(name = LATENCY_MS, defaultValue = "0")
  long latencyMs;

  @Inject
  @ConfigProperty(name = SLOW_PROBABILITY, defaultValue = "0")
  double slowProbability;

  @Inject
  @ConfigProperty(name = SLOW_LATENCY_MS, defaultValue = "1000")
  long slowLatencyMs;

  @Inject
  @ConfigProperty(name = LATENCY_PHASE, defaultValue = "AFTER_CHARGE")
  LatencyPhase latencyPhase;

  @Inject
  @ConfigProperty(name = DROP_RESPONSE_PROBABILITY, defaultValue = "0")
  double dropResponseProbability;

  @Inject
  @ConfigProperty(name = DROP_MODE, defaultValue = "GATEWAY_TIMEOUT")
  DropMode dropMode;

  @Inject
  @ConfigProperty(name = ERROR_BEFORE_CHARGE_PROBABILITY, defaultValue = "0")
  double errorBeforeChargeProbability;

  @Inject
  @ConfigProperty(name = LOSE_REQUEST_PROBABILITY, defaultValue = "0")
  double loseRequestProbability;

  @Inject
  @ConfigProperty(name = SEED, defaultValue = "42")
  long seed;

  @Inject
  @ConfigProperty(name = FAULTS_ON_REPLAYS, defaultValue = "false")
  boolean faultsOnReplays;

  /**
   * The configured settings.
   *
   * @throws InvalidFaultSettingsException when a configured value is out of range
   */
  public FaultSettings settings() {
    return new FaultSettings(
        latencyMs,
        slowProbability,
        slowLatencyMs,
        latencyPhase,
        dropResponseProbability,
        dropMode,
        errorBeforeChargeProbability,
        loseRequestProbability,
        seed,
        faultsOnReplays);
  }
}
