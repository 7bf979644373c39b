package com.banhang.gateway.sandbox.api;

import com.banhang.gateway.sandbox.fault.FaultSettings;
import jakarta.json.bind.annotation.JsonbPropertyOrder;

/**
 * The fault settings as {@code GET/PUT/DELETE /v1/faults} show them. Names match the members
 * accepted by {@code PUT /v1/faults}.
 */
@JsonbPropertyOrder({
  "latencyMs",
  "slowProbability",
  "slowLatencyMs",
  "latencyPhase",
  "dropResponseProbability",
  "dropMode",
  "errorBeforeChargeProbability",
  "loseRequestProbability",
  "seed",
  "faultsOnReplays"
})
public record FaultSettingsJson(
    long latencyMs,
    double slowProbability,
    long slowLatencyMs,
    String latencyPhase,
    double dropResponseProbability,
    String dropMode,
    double errorBeforeChargeProbability,
    double loseRequestProbability,
    long seed,
    boolean faultsOnReplays) {

  /** The API view of settings. */
  public static FaultSettingsJson of(FaultSettings settings) {
    return new FaultSettingsJson(
        settings.latencyMs(),
        settings.slowProbability(),
        settings.slowLatencyMs(),
        settings.latencyPhase().name(),
        settings.dropResponseProbability(),
        settings.dropMode().name(),
        settings.errorBeforeChargeProbability(),
        settings.loseRequestProbability(),
        settings.seed(),
        settings.faultsOnReplays());
  }
}
