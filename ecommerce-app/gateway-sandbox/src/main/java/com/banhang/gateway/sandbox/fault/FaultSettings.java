package com.banhang.gateway.sandbox.fault;

/**
 * The faults that {@code POST /v1/charges} injects: latency, slow calls, lost responses, errors
 * before the charge and requests lost on their way to the processor, plus the seed of the random
 * source that decides them and whether replays get them too. Immutable and always valid.
 *
 * @param latencyMs latency added to every charge call
 * @param slowProbability probability that a call is slow
 * @param slowLatencyMs extra latency of a slow call
 * @param latencyPhase whether the latency is spent before or after the charge commits
 * @param dropResponseProbability probability that the response is lost after the charge committed
 * @param dropMode how a response is lost
 * @param errorBeforeChargeProbability probability of a 503 without any charge
 * @param loseRequestProbability probability that a request for a new key is lost before it reaches
 *     the processor: nothing is charged and the client gets the {@code dropMode} failure, as for a
 *     lost response
 * @param seed seed of the one random source behind all the decisions
 * @param faultsOnReplays whether a replay (the key already holds a charge of the same request) may
 *     also be dropped or fail before the charge; when false a replay gets no fault but its latency
 */
public record FaultSettings(
    long latencyMs,
    double slowProbability,
    long slowLatencyMs,
    LatencyPhase latencyPhase,
    double dropResponseProbability,
    DropMode dropMode,
    double errorBeforeChargeProbability,
    double loseRequestProbability,
    long seed,
    boolean faultsOnReplays) {

  /**
   * Thirty seconds, for {@code latencyMs} and {@code slowLatencyMs} each and for the latency of one
   * call in total ({@link FaultDecider} caps their sum): longer than the shop waits for one try
   * (its read timeout and its Fault Tolerance timeout), and short enough that no setting can park
   * the sandbox's or its callers' threads for long.
   */
  public static final long MAX_LATENCY_MS = 30_000;

  /** The settings of a sandbox that injects nothing. */
  public static final FaultSettings NONE =
      new FaultSettings(
          0,
          0.0,
          1000,
          LatencyPhase.AFTER_CHARGE,
          0.0,
          DropMode.GATEWAY_TIMEOUT,
          0.0,
          0.0,
          42,
          false);

  /**
   * Checks every range.
   *
   * @throws InvalidFaultSettingsException when a value is out of range or missing
   */
  public FaultSettings {
    requireLatency("latencyMs", latencyMs);
    requireLatency("slowLatencyMs", slowLatencyMs);
    requireProbability("slowProbability", slowProbability);
    requireProbability("dropResponseProbability", dropResponseProbability);
    requireProbability("errorBeforeChargeProbability", errorBeforeChargeProbability);
    requireProbability("loseRequestProbability", loseRequestProbability);
    if (latencyPhase == null) {
      throw new InvalidFaultSettingsException(
          "latencyPhase: must be AFTER_CHARGE or BEFORE_CHARGE");
    }
    if (dropMode == null) {
      throw new InvalidFaultSettingsException("dropMode: must be GATEWAY_TIMEOUT or RESET");
    }
  }

  private static void requireLatency(String name, long value) {
    if (value < 0 || value > MAX_LATENCY_MS) {
      throw new InvalidFaultSettingsException(name + ": must be between 0 and " + MAX_LATENCY_MS);
    }
  }

  private static void requireProbability(String name, double value) {
    // The negated form also rejects NaN.
    if (!(value >= 0.0 && value <= 1.0)) {
      throw new InvalidFaultSettingsException(name + ": must be between 0 and 1");
    }
  }
}
