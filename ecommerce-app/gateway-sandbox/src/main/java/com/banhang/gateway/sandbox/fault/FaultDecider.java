package com.banhang.gateway.sandbox.fault;

import java.util.Random;

/**
 * Draws the {@link FaultDecision} of each charge call from one {@code java.util.Random} seeded by
 * the settings, so that the same settings and the same sequence of calls give the same faults on
 * every run.
 *
 * <p>Every decision consumes exactly four numbers (slow, error before charge, drop response, lose
 * request), in that order, whatever the probabilities are and whether or not the call turns out to
 * be a replay, so that changing one probability does not shift the other decisions of a run.
 */
public final class FaultDecider {

  private final FaultSettings settings;
  private final Random random;

  /**
   * @param settings the settings whose seed starts a fresh random sequence
   */
  public FaultDecider(FaultSettings settings) {
    this.settings = settings;
    this.random = new Random(settings.seed());
  }

  /** The settings this decider draws from. */
  public FaultSettings settings() {
    return settings;
  }

  /**
   * Draws the decision of the next charge call. Synchronized so that concurrent calls each get a
   * whole decision, never half of one and half of another.
   */
  public synchronized FaultDecision next() {
    boolean slow = draw(settings.slowProbability());
    boolean errorBeforeCharge = draw(settings.errorBeforeChargeProbability());
    boolean dropResponse = draw(settings.dropResponseProbability());
    boolean loseRequest = draw(settings.loseRequestProbability());
    // Each latency is at most MAX_LATENCY_MS; so is their sum, so that no call waits longer.
    long latency =
        Math.min(
            FaultSettings.MAX_LATENCY_MS,
            settings.latencyMs() + (slow ? settings.slowLatencyMs() : 0));
    return new FaultDecision(
        latency,
        settings.latencyPhase(),
        errorBeforeCharge,
        dropResponse,
        loseRequest,
        settings.dropMode(),
        settings.faultsOnReplays());
  }

  private boolean draw(double probability) {
    // nextDouble() is in [0, 1): probability 0 never fires, probability 1 always does.
    return random.nextDouble() < probability;
  }
}
