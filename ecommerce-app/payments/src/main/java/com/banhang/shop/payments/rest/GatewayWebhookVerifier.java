package com.banhang.shop.payments.rest;

import com.banhang.events.webhooks.RefusedWebhookException;
import com.banhang.events.webhooks.StandardWebhookVerification;
import com.banhang.events.webhooks.VerifiedWebhook;
import com.banhang.shop.payments.api.GatewayWebhookCounted;
import com.banhang.shop.payments.application.GatewayWebhookRefusedException;
import com.banhang.shop.payments.application.GatewayWebhooksOffException;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Checks the processor's webhooks the way it signs them, Standard Webhooks: the {@code webhook-id},
 * {@code webhook-timestamp} and {@code webhook-signature} headers, the timestamp within {@code
 * payments.gateway.webhooks.tolerance} of now (an older delivery is refused: a replay), and an
 * HMAC-SHA256 signature over the exact body, compared in constant time by the Standard Webhooks
 * library, with any of the secrets in {@code payments.gateway.webhooks.secrets} (several during a
 * rotation). No secret: webhooks are off, and the endpoint answers 404.
 */
@ApplicationScoped
public class GatewayWebhookVerifier {

  @Inject
  @ConfigProperty(name = "payments.gateway.webhooks.secrets")
  Optional<List<String>> secrets;

  @Inject
  @ConfigProperty(name = "payments.gateway.webhooks.tolerance", defaultValue = "PT5M")
  Duration tolerance;

  /** The processor's name in the events' key: ids are unique per provider. */
  @Inject
  @ConfigProperty(name = "payments.gateway.webhooks.provider", defaultValue = "gateway")
  String provider;

  @Inject Event<GatewayWebhookCounted> counted;

  private StandardWebhookVerification verification;

  /**
   * Checks the settings at start-up: a bad secret or window stops the application, not a delivery.
   */
  @PostConstruct
  void init() {
    List<String> known =
        secrets.orElse(List.of()).stream().map(String::trim).filter(s -> !s.isEmpty()).toList();
    if (known.isEmpty()) {
      verification = null;
      return;
    }
    if (provider == null || provider.isBlank() || provider.length() > 40) {
      throw new IllegalArgumentException(
          "payments.gateway.webhooks.provider: must be 1 to 40 characters");
    }
    try {
      verification = new StandardWebhookVerification(known, tolerance, Clock.systemUTC());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "payments.gateway.webhooks.secrets or .tolerance: " + e.getMessage(), e);
    }
  }

  String provider() {
    return provider;
  }

  /**
   * @throws GatewayWebhooksOffException when no secret is configured
   * @throws GatewayWebhookRefusedException when the delivery is not to be trusted
   */
  VerifiedWebhook verify(Map<String, List<String>> headers, byte[] body) {
    if (verification == null) {
      throw new GatewayWebhooksOffException();
    }
    try {
      return verification.check(headers, body);
    } catch (RefusedWebhookException e) {
      counted.fire(new GatewayWebhookCounted("refused"));
      throw new GatewayWebhookRefusedException(e.getMessage());
    }
  }
}
