package com.banhang.events.webhooks;

import java.net.URI;
import java.util.Set;

/**
 * A subscriber's endpoint as configured: where its webhooks go, which tenants' events it receives,
 * and the secrets they are signed with.
 *
 * @param name its name in the configuration ({@code events.webhooks.<name>.*}) and in the tables
 * @param tenants the tenant ids whose events it receives; empty when it receives every tenant's
 *     ({@code *})
 */
public record WebhookEndpoint(String name, URI url, Set<String> tenants, WebhookSigner signer) {

  public WebhookEndpoint {
    tenants = Set.copyOf(tenants);
  }

  /** Whether it receives the events of {@code tenantId}. */
  public boolean receives(String tenantId) {
    return tenants.isEmpty() || tenants.contains(tenantId);
  }

  @Override
  public String toString() {
    // No URL: one may carry credentials in its query or user part.
    return "webhook endpoint " + name;
  }
}
