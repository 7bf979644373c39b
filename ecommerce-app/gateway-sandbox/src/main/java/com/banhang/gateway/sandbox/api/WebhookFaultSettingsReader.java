package com.banhang.gateway.sandbox.api;

import static com.banhang.gateway.sandbox.api.FaultSettingsReader.fraction;
import static com.banhang.gateway.sandbox.api.FaultSettingsReader.invalid;
import static com.banhang.gateway.sandbox.api.FaultSettingsReader.readObject;
import static com.banhang.gateway.sandbox.api.FaultSettingsReader.whole;

import com.banhang.gateway.sandbox.charge.InvalidRequestException;
import com.banhang.gateway.sandbox.fault.InvalidFaultSettingsException;
import com.banhang.gateway.sandbox.fault.WebhookFaultSettings;
import jakarta.json.JsonObject;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads the body of {@code PUT /v1/faults/webhooks} by the rules of {@code PUT /v1/faults}: members
 * left out (or null) take the configured defaults; an unknown member, a wrong type or a value out
 * of range is refused with {@value FaultSettingsReader#INVALID_FAULTS} and changes nothing.
 */
public final class WebhookFaultSettingsReader {

  private static final Set<String> MEMBERS =
      new TreeSet<>(
          Set.of(
              "delayProbability",
              "delayMinMs",
              "delayMaxMs",
              "duplicateProbability",
              "reorderProbability",
              "reorderMaxHoldMs",
              "loseProbability",
              "earlyProbability",
              "seed"));

  private WebhookFaultSettingsReader() {}

  /**
   * @param body a JSON object with any of the settings' members
   * @param defaults what the members left out take
   * @throws InvalidRequestException {@code invalid_faults}
   */
  public static WebhookFaultSettings read(String body, WebhookFaultSettings defaults) {
    JsonObject json = readObject(body);
    for (String member : json.keySet()) {
      if (!MEMBERS.contains(member)) {
        throw invalid("unknown member " + member + "; known: " + MEMBERS);
      }
    }
    try {
      return new WebhookFaultSettings(
          fraction(json, "delayProbability", defaults.delayProbability()),
          whole(json, "delayMinMs", defaults.delayMinMs()),
          whole(json, "delayMaxMs", defaults.delayMaxMs()),
          fraction(json, "duplicateProbability", defaults.duplicateProbability()),
          fraction(json, "reorderProbability", defaults.reorderProbability()),
          whole(json, "reorderMaxHoldMs", defaults.reorderMaxHoldMs()),
          fraction(json, "loseProbability", defaults.loseProbability()),
          fraction(json, "earlyProbability", defaults.earlyProbability()),
          whole(json, "seed", defaults.seed()));
    } catch (InvalidFaultSettingsException e) {
      throw invalid(e.getMessage());
    }
  }
}
