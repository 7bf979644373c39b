package com.banhang.shop.payments.rest;

import com.banhang.events.webhooks.VerifiedWebhook;
import com.banhang.shop.payments.application.GatewayEventInbox;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.io.InputStream;

/**
 * {@code POST /api/v1/gateway/webhooks}: the processor's webhooks (docs/payments.md, "Webhooks
 * in"). Reads the raw body (the signature is over its exact bytes), verifies it ({@link
 * GatewayWebhookVerifier}), keeps the event once and answers 204 at once; the payment is settled
 * after, off this thread. A duplicate delivery is answered 204 too, so that the processor stops
 * sending it. Reachable without a user: the signature is the authentication.
 */
@Path("/v1/gateway/webhooks")
@RequestScoped
public class GatewayWebhookResource {

  /** The largest body kept: a charge event is well under 2 KiB. */
  static final int MAX_BODY = 64 * 1024;

  @Inject GatewayWebhookVerifier verifier;
  @Inject GatewayEventInbox inbox;
  @Context HttpHeaders headers;

  @POST
  @Consumes(MediaType.APPLICATION_JSON)
  public Response receive(InputStream body) throws IOException {
    byte[] bytes = body.readNBytes(MAX_BODY + 1);
    if (bytes.length > MAX_BODY) {
      throw new WebApplicationException(Response.Status.REQUEST_ENTITY_TOO_LARGE);
    }
    VerifiedWebhook verified = verifier.verify(headers.getRequestHeaders(), bytes);
    inbox.receive(verifier.provider(), verified.id(), verified.describe(), verified.body());
    return Response.noContent().build();
  }
}
