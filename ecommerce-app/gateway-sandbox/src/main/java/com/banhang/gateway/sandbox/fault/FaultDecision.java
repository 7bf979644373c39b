package com.banhang.gateway.sandbox.fault;

/**
 * What happens to one charge call: how long it waits and when, and whether it fails before the
 * charge, loses its response after it, or (for a new key) is lost before it reaches the processor.
 * Carries everything the call needs from the settings it was drawn from, so a concurrent change of
 * the settings never mixes two of them in one call.
 *
 * @param latencyMs total latency of the call (fixed latency plus, for a slow call, the slow
 *     latency)
 * @param latencyPhase whether the latency is spent before or after the charge commits
 * @param errorBeforeCharge answer 503 without creating a charge
 * @param dropResponse commit the charge, then lose the response
 * @param loseRequest for a new key: charge nothing and answer with the {@code dropMode} failure, as
 *     if the request had been lost on its way to the processor (never applies to a replay)
 * @param dropMode how the response is lost
 * @param faultsOnReplays whether {@code errorBeforeCharge} and {@code dropResponse} also apply when
 *     the key already holds a charge of the same request (a replay)
 */
public record FaultDecision(
    long latencyMs,
    LatencyPhase latencyPhase,
    boolean errorBeforeCharge,
    boolean dropResponse,
    boolean loseRequest,
    DropMode dropMode,
    boolean faultsOnReplays) {

  /** The latency to spend before the charge is committed. */
  public long latencyBeforeChargeMs() {
    return latencyPhase == LatencyPhase.BEFORE_CHARGE ? latencyMs : 0;
  }

  /** The latency to spend after the charge is committed, before the response leaves. */
  public long latencyAfterChargeMs() {
    return latencyPhase == LatencyPhase.AFTER_CHARGE ? latencyMs : 0;
  }
}
