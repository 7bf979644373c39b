package com.banhang.events.webhooks;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.Config;

/**
 * The webhooks' settings ({@link WebhookSettings}), read from MicroProfile Config when the
 * application starts, so that an unusable or refused endpoint is reported in the start-up log
 * rather than at its first event. The endpoints' names are configuration themselves, so their
 * properties are read by name from the injected {@link Config}.
 */
@ApplicationScoped
public class WebhookConfiguration {

  @Inject Config config;

  private volatile WebhookSettings settings;

  public WebhookConfiguration() {}

  /** Fixed settings, for tests that build the beans themselves. */
  WebhookConfiguration(WebhookSettings settings) {
    this.settings = settings;
  }

  void readAtStartup(@Observes @Initialized(ApplicationScoped.class) Object started) {
    settings();
  }

  public WebhookSettings settings() {
    WebhookSettings current = settings;
    if (current == null) {
      synchronized (this) {
        if (settings == null) {
          settings = WebhookSettings.read(name -> config.getOptionalValue(name, String.class));
        }
        current = settings;
      }
    }
    return current;
  }
}
