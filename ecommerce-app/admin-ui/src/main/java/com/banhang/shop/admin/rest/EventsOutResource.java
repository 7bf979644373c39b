package com.banhang.shop.admin.rest;

import com.banhang.events.webhooks.DeliveryHistory;
import com.banhang.shop.admin.application.ActionResult;
import com.banhang.shop.admin.application.EventsOut;
import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * {@code /api/v1/admin/events}: the shop's events out that wait for an operator (docs/events.md,
 * "When an event cannot be delivered"): parked events, parked webhook deliveries with every
 * attempt, endpoints disabled by a 410, and the calls that put them back in line. Operator role
 * only (web.xml, and here too); the POSTs need a JSON Content-Type and the guard header ({@link
 * OperatorRequestGuard}); all audited.
 */
@Path("/v1/admin/events")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed("operator")
@Tag(name = "operator")
public class EventsOutResource {

  private static final int DEFAULT_LIMIT = 100;
  private static final int MAX_LIMIT = 500;

  @Inject EventsOut eventsOut;
  @Context SecurityContext security;

  @GET
  @Path("parked")
  @Operation(
      summary = "Events and webhook deliveries that wait for an operator",
      description =
          "Events the relay parked after its last retry (their aggregate's later events wait"
              + " behind them), webhook deliveries parked after the last retry, and endpoints"
              + " disabled by a 410 answer; oldest first, at most limit (1 to 500) of each.")
  public Response parked(@QueryParam("limit") Integer limit) {
    int size = limit == null ? DEFAULT_LIMIT : limit;
    if (size < 1 || size > MAX_LIMIT) {
      return OperatorProblems.badRequest("limit must be between 1 and " + MAX_LIMIT);
    }
    return Response.ok(eventsOut.parked(operator(), size)).build();
  }

  @GET
  @Path("{eventId}/deliveries")
  @Operation(summary = "Every webhook delivery of an event, each with its attempts")
  public List<DeliveryHistory> deliveries(@PathParam("eventId") String eventId) {
    return eventsOut.deliveriesOf(operator(), eventId);
  }

  @POST
  @Path("{eventId}/retry")
  @Consumes(MediaType.APPLICATION_JSON)
  @Operation(summary = "Put a parked event back in line, due now (422 if it is not parked)")
  public Response retryEvent(@PathParam("eventId") String eventId) {
    return answer(eventsOut.retryEvent(operator(), eventId));
  }

  @POST
  @Path("webhook-deliveries/{deliveryId}/retry")
  @Consumes(MediaType.APPLICATION_JSON)
  @Operation(summary = "Send a parked webhook delivery again (422 if it is not parked)")
  public Response retryDelivery(@PathParam("deliveryId") String deliveryId) {
    return answer(eventsOut.retryDelivery(operator(), deliveryId));
  }

  @POST
  @Path("webhook-endpoints/{endpoint}/enable")
  @Consumes(MediaType.APPLICATION_JSON)
  @Operation(summary = "Let an endpoint disabled by 410 Gone receive again (422 if it is not)")
  public Response enableEndpoint(@PathParam("endpoint") String endpoint) {
    return answer(eventsOut.enableEndpoint(operator(), endpoint));
  }

  private static Response answer(ActionResult result) {
    if (result.status() == ActionResult.Status.DONE) {
      return Response.ok(Map.of("result", "DONE", "message", result.message())).build();
    }
    return OperatorProblems.of(result);
  }

  private String operator() {
    return security.getUserPrincipal().getName();
  }
}
