package com.banhang.shop.admin.rest;

import com.banhang.shop.admin.application.ActionResult;
import com.banhang.shop.admin.application.GatewayEventsIn;
import com.banhang.shop.admin.application.OperatorActions;
import com.banhang.shop.payments.api.GatewayEventView;
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
import java.util.Optional;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * {@code /api/v1/admin/gateway-events}: the events the processor sent by webhook, as the console's
 * Gateway events view shows them (docs/operations.md, "Gateway events"), and its two actions: retry
 * a parked event, mark a flagged one handled. Operator role only (web.xml, and here too); the POSTs
 * need a JSON Content-Type and the guard header ({@link OperatorRequestGuard}); reads and actions
 * are audited. The POSTs take no Idempotency-Key, like the events out's retries: each is fenced by
 * the event's own state (only a parked event is retried, only an unmarked flagged one is marked),
 * so a repeated call is refused and changes nothing.
 */
@Path("/v1/admin/gateway-events")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed("operator")
@Tag(name = "operator")
public class GatewayEventsResource {

  @Inject GatewayEventsIn gatewayEvents;
  @Inject OperatorActions actions;
  @Context SecurityContext security;

  /**
   * One page of gateway events of one filter; {@code flaggedUnhandled} and {@code parked} count
   * what waits for an operator among all events, whatever the filter.
   */
  public record GatewayEventPage(
      String status,
      long total,
      long flaggedUnhandled,
      long parked,
      int offset,
      List<GatewayEventView> items) {}

  /**
   * @param reason what you did and where, at least 20 characters
   * @param ticket the ticket's reference; appended to the reason as {@code [ticket <ticket>]},
   *     which the reason may carry itself instead
   */
  public record HandledRequest(String reason, String ticket) {

    /** The reason as the audit keeps it, with the ticket at its end. */
    String withTicket() {
      if (ticket == null || ticket.isBlank()) {
        return reason;
      }
      return (reason == null ? "" : reason.trim()) + " [ticket " + ticket.trim() + "]";
    }
  }

  @GET
  @Operation(
      summary = "The processor's webhook events, newest delivery first",
      description =
          "Each with its verification (which secret matched, when it was signed), its status"
              + " (PENDING, SETTLED, CONFIRMED, FLAGGED: it contradicts the shop's record, PARKED:"
              + " it could not be processed) and what its processing found. status:"
              + " NEEDING_OPERATOR (parked, and flagged not marked handled), ALL (the default) or"
              + " one status. Paged by offset and limit (at most 500). Each read is audited.")
  public Response list(
      @QueryParam("status") String status,
      @QueryParam("offset") Integer offset,
      @QueryParam("limit") Integer limit) {
    Optional<String> filter = GatewayEventsIn.filter(status);
    if (filter.isEmpty()) {
      return OperatorProblems.badRequest(
          "status must be one of " + String.join(", ", GatewayEventsIn.filters()));
    }
    PageRequest page = PageRequest.of(offset, limit);
    if (page == null) {
      return OperatorProblems.badRequest(PageRequest.OUT_OF_RANGE);
    }
    return Response.ok(
            new GatewayEventPage(
                filter.get(),
                gatewayEvents.count(filter.get()),
                gatewayEvents.countFlaggedUnhandled(),
                gatewayEvents.countParked(),
                page.offset(),
                gatewayEvents.page(operator(), filter.get(), page.offset(), page.limit())))
        .build();
  }

  @POST
  @Path("{provider}/{eventId}/retry")
  @Consumes(MediaType.APPLICATION_JSON)
  @Operation(
      summary = "Process a parked event again now",
      description =
          "200 with where it stands after (settled, confirmed, flagged, pending or parked again);"
              + " 404 gateway-event-not-found; 422 operator-action-refused (not parked); 503"
              + " operator-action-failed.")
  public Response retry(
      @PathParam("provider") String provider, @PathParam("eventId") String eventId) {
    if (gatewayEvents.find(provider, eventId).isEmpty()) {
      return OperatorProblems.gatewayEventNotFound(provider, eventId);
    }
    return answer(actions.retryGatewayEvent(operator(), provider, eventId));
  }

  @POST
  @Path("{provider}/{eventId}/handled")
  @Consumes(MediaType.APPLICATION_JSON)
  @Operation(
      summary = "Mark a flagged event handled (no money moves)",
      description =
          "Body {reason, ticket}: what you did at the processor or on the payment, at least 20"
              + " characters, and the ticket. 200 marked; 404 gateway-event-not-found; 422"
              + " operator-action-refused (no reason or ticket, not flagged, or already handled:"
              + " the detail names who); 503 operator-action-failed.")
  public Response handled(
      @PathParam("provider") String provider,
      @PathParam("eventId") String eventId,
      HandledRequest request) {
    if (gatewayEvents.find(provider, eventId).isEmpty()) {
      return OperatorProblems.gatewayEventNotFound(provider, eventId);
    }
    String reason = request == null ? null : request.withTicket();
    return answer(actions.markGatewayEventHandled(operator(), provider, eventId, reason));
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
