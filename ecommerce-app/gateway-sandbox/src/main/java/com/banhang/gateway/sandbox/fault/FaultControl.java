package com.banhang.gateway.sandbox.fault;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The fault settings in force, changed at run time through {@code /v1/faults}. Setting them (or
 * resetting them) always starts a new random sequence from their seed, so a test that sets faults
 * gets repeatable decisions from that point on.
 */
@ApplicationScoped
public class FaultControl {

  private final FaultSettings defaults;
  private final AtomicReference<FaultDecider> decider = new AtomicReference<>();

  /** For CDI's client proxy only. */
  protected FaultControl() {
    this.defaults = FaultSettings.NONE;
  }

  @Inject
  public FaultControl(FaultDefaults configured) {
    this(configured.settings());
  }

  /**
   * @param defaults the settings to start with and to return to on {@link #reset()}
   */
  public FaultControl(FaultSettings defaults) {
    this.defaults = defaults;
    this.decider.set(new FaultDecider(defaults));
  }

  /** The configured defaults. */
  public FaultSettings defaults() {
    return defaults;
  }

  /** The settings in force. */
  public FaultSettings current() {
    return decider.get().settings();
  }

  /** Replaces the settings in force and re-seeds the random source. */
  public FaultSettings replace(FaultSettings settings) {
    decider.set(new FaultDecider(settings));
    return settings;
  }

  /** Returns to the configured defaults and re-seeds the random source. */
  public FaultSettings reset() {
    return replace(defaults);
  }

  /** Draws the faults of the next charge call. */
  public FaultDecision nextDecision() {
    return decider.get().next();
  }
}
