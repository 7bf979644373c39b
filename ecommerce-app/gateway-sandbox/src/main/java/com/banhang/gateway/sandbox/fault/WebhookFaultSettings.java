package com.banhang.gateway.sandbox.fault;

/**
 * The faults of the sandbox's outgoing webhooks, the ones real processors show their merchants:
 * deliveries late by seconds to minutes, delivered twice, out of order, lost on an attempt, or
 * arriving before the charge call that caused them has been answered. Immutable and always valid.
 *
 * @param delayProbability probability that an event's first delivery waits
 * @param delayMinMs shortest wait of a delayed event
 * @param delayMaxMs longest wait of a delayed event (drawn evenly between the two)
 * @param duplicateProbability probability that an event, once delivered, is delivered once more
 *     (same {@code webhook-id})
 * @param reorderProbability probability that an event is held back until an event created after it
 *     has been sent
 * @param reorderMaxHoldMs how long a held event waits for a later one at most, so that the last
 *     event of a quiet sandbox still goes
 * @param loseProbability probability that an event's first attempt is lost: recorded, never sent,
 *     so only the retry (or a resend) brings the event
 * @param earlyProbability probability that an event is delivered by the charge call itself, right
 *     after the commit and before its answer leaves (so also before an {@code AFTER_CHARGE} latency
 *     ends)
 * @param seed seed of the random source behind these decisions, apart from the charge faults' one
 *     so that webhook traffic never shifts the charge decisions of a run
 */
public record WebhookFaultSettings(
    double delayProbability,
    long delayMinMs,
    long delayMaxMs,
    double duplicateProbability,
    double reorderProbability,
    long reorderMaxHoldMs,
    double loseProbability,
    double earlyProbability,
    long seed) {

  /**
   * Ten minutes, for a delay and for a hold: "minutes late" as processors are, and short enough
   * that a test run with a forgotten setting still sees its events the same day.
   */
  public static final long MAX_DELAY_MS = 600_000;

  /** Webhooks delivered at once, each once, in order. */
  public static final WebhookFaultSettings NONE =
      new WebhookFaultSettings(0.0, 1000, 60_000, 0.0, 0.0, 60_000, 0.0, 0.0, 42);

  /**
   * Checks every range.
   *
   * @throws InvalidFaultSettingsException when a value is out of range
   */
  public WebhookFaultSettings {
    requireProbability("delayProbability", delayProbability);
    requireProbability("duplicateProbability", duplicateProbability);
    requireProbability("reorderProbability", reorderProbability);
    requireProbability("loseProbability", loseProbability);
    requireProbability("earlyProbability", earlyProbability);
    requireDelay("delayMinMs", delayMinMs);
    requireDelay("delayMaxMs", delayMaxMs);
    requireDelay("reorderMaxHoldMs", reorderMaxHoldMs);
    if (delayMinMs > delayMaxMs) {
      throw new InvalidFaultSettingsException("delayMinMs: must not be above delayMaxMs");
    }
  }

  private static void requireDelay(String name, long value) {
    if (value < 0 || value > MAX_DELAY_MS) {
      throw new InvalidFaultSettingsException(name + ": must be between 0 and " + MAX_DELAY_MS);
    }
  }

  private static void requireProbability(String name, double value) {
    // The negated form also rejects NaN.
    if (!(value >= 0.0 && value <= 1.0)) {
      throw new InvalidFaultSettingsException(name + ": must be between 0 and 1");
    }
  }
}
