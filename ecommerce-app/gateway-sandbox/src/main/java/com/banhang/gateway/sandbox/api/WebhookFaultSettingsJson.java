package com.banhang.gateway.sandbox.api;

import com.banhang.gateway.sandbox.fault.WebhookFaultSettings;
import jakarta.json.bind.annotation.JsonbPropertyOrder;

/**
 * The webhook fault settings as {@code GET/PUT/DELETE /v1/faults/webhooks} show them. Names match
 * the members accepted by {@code PUT}.
 */
@JsonbPropertyOrder({
  "delayProbability",
  "delayMinMs",
  "delayMaxMs",
  "duplicateProbability",
  "reorderProbability",
  "reorderMaxHoldMs",
  "loseProbability",
  "earlyProbability",
  "seed"
})
public record WebhookFaultSettingsJson(
    double delayProbability,
    long delayMinMs,
    long delayMaxMs,
    double duplicateProbability,
    double reorderProbability,
    long reorderMaxHoldMs,
    double loseProbability,
    double earlyProbability,
    long seed) {

  /** The API view of settings. */
  public static WebhookFaultSettingsJson of(WebhookFaultSettings settings) {
    return new WebhookFaultSettingsJson(
        settings.delayProbability(),
        settings.delayMinMs(),
        settings.delayMaxMs(),
        settings.duplicateProbability(),
        settings.reorderProbability(),
        settings.reorderMaxHoldMs(),
        settings.loseProbability(),
        settings.earlyProbability(),
        settings.seed());
  }
}
