package com.banhang.subscriber;

import com.standardwebhooks.Webhook;
import com.standardwebhooks.exceptions.WebhookVerificationException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Checks a webhook the way the Standard Webhooks specification tells a receiver to, with its
 * reference library: the signature over {@code id.timestamp.body} under one of this subscriber's
 * secrets (several during a rotation), and a timestamp within the library's tolerance, which
 * refuses replays of old deliveries.
 */
@ApplicationScoped
public class SignatureCheck {

  @Inject
  @ConfigProperty(name = "subscriber.secrets")
  List<String> secrets;

  /** True when some secret verifies {@code body} with {@code headers}. */
  public boolean verifies(String body, Map<String, List<String>> headers) {
    for (String secret : secrets) {
      try {
        new Webhook(secret.trim()).verify(body, headers);
        return true;
      } catch (WebhookVerificationException e) {
        // Try the next secret: during a rotation the sender may sign with a newer one only.
      } catch (Exception e) {
        return false;
      }
    }
    return false;
  }
}
