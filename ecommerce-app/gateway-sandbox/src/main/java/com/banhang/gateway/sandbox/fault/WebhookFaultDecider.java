package com.banhang.gateway.sandbox.fault;

import java.util.Random;

/**
 * Draws the {@link WebhookFaultDecision} of each webhook event from one {@code java.util.Random}
 * seeded by the settings: the same settings and the same sequence of charges give the same
 * deliveries on every run.
 *
 * <p>Every decision consumes exactly six numbers (delayed?, where in the delay range, duplicate?,
 * reorder?, lose the first attempt?, early?), in that order and whatever the probabilities, so that
 * changing one probability does not shift the others.
 */
public final class WebhookFaultDecider {

  private final WebhookFaultSettings settings;
  private final Random random;

  /**
   * @param settings the settings whose seed starts a fresh random sequence
   */
  public WebhookFaultDecider(WebhookFaultSettings settings) {
    this.settings = settings;
    this.random = new Random(settings.seed());
  }

  /** The settings this decider draws from. */
  public WebhookFaultSettings settings() {
    return settings;
  }

  /** Draws the decision of the next event; synchronized so a decision is never split. */
  public synchronized WebhookFaultDecision next() {
    boolean delayed = draw(settings.delayProbability());
    double position = random.nextDouble();
    boolean duplicate = draw(settings.duplicateProbability());
    boolean reorder = draw(settings.reorderProbability());
    boolean lose = draw(settings.loseProbability());
    boolean early = draw(settings.earlyProbability());
    long range = settings.delayMaxMs() - settings.delayMinMs();
    long delay = delayed ? settings.delayMinMs() + Math.round(position * range) : 0;
    return new WebhookFaultDecision(
        delay, duplicate, reorder, lose, early, settings.reorderMaxHoldMs());
  }

  private boolean draw(double probability) {
    // nextDouble() is in [0, 1): probability 0 never fires, probability 1 always does.
    return random.nextDouble() < probability;
  }
}
