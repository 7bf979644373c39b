package com.banhang.gateway.sandbox.api;

import com.banhang.gateway.sandbox.fault.WebhookFaultControl;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code /v1/faults/webhooks}: the faults of the outgoing webhooks (delays, duplicates, reordering,
 * lost attempts, early deliveries), read and changed at run time beside the charge faults and, like
 * them, a test control. Every change re-seeds the webhooks' random source.
 */
@Path("/faults/webhooks")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class WebhookFaultsResource {

  @Inject WebhookFaultControl faults;

  /** The settings in force. */
  @GET
  public WebhookFaultSettingsJson current() {
    return WebhookFaultSettingsJson.of(faults.current());
  }

  /** Replaces the settings; members left out take the configured defaults. */
  @PUT
  public WebhookFaultSettingsJson replace(String body) {
    return WebhookFaultSettingsJson.of(
        faults.replace(WebhookFaultSettingsReader.read(body, faults.defaults())));
  }

  /** Returns to the configured defaults. */
  @DELETE
  public WebhookFaultSettingsJson reset() {
    return WebhookFaultSettingsJson.of(faults.reset());
  }
}
