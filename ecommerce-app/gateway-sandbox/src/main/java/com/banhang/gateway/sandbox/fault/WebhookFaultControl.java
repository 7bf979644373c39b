package com.banhang.gateway.sandbox.fault;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The webhook fault settings in force, changed at run time through {@code /v1/faults/webhooks}.
 * Setting or resetting them starts a new random sequence from their seed, as for the charge faults.
 */
@ApplicationScoped
public class WebhookFaultControl {

  private final WebhookFaultSettings defaults;
  private final AtomicReference<WebhookFaultDecider> decider = new AtomicReference<>();

  /** For CDI's client proxy only. */
  protected WebhookFaultControl() {
    this.defaults = WebhookFaultSettings.NONE;
  }

  @Inject
  public WebhookFaultControl(WebhookFaultDefaults configured) {
    this(configured.settings());
  }

  /**
   * @param defaults the settings to start with and to return to on {@link #reset()}
   */
  public WebhookFaultControl(WebhookFaultSettings defaults) {
    this.defaults = defaults;
    this.decider.set(new WebhookFaultDecider(defaults));
  }

  /** The configured defaults. */
  public WebhookFaultSettings defaults() {
    return defaults;
  }

  /** The settings in force. */
  public WebhookFaultSettings current() {
    return decider.get().settings();
  }

  /** Replaces the settings in force and re-seeds the random source. */
  public WebhookFaultSettings replace(WebhookFaultSettings settings) {
    decider.set(new WebhookFaultDecider(settings));
    return settings;
  }

  /** Returns to the configured defaults and re-seeds the random source. */
  public WebhookFaultSettings reset() {
    return replace(defaults);
  }

  /** Draws the delivery faults of the next event. */
  public WebhookFaultDecision nextDecision() {
    return decider.get().next();
  }
}
