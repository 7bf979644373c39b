package com.banhang.shop.admin.rest;

import com.banhang.idempotency.Idempotent;
import com.banhang.shop.admin.application.ActionResult;
import com.banhang.shop.admin.application.KeyRef;
import com.banhang.shop.admin.application.OperatorActions;
import com.banhang.shop.admin.application.OverrideProposal;
import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * {@code POST /api/v1/admin/payment-resolutions}: an operator settles a payments.charge key that
 * reconciliation cannot settle, as the console's Resolve buttons do; and {@code POST
 * /api/v1/admin/purges}: the retention purge now. Both take an Idempotency-Key like every other
 * POST of the shop, so an automation that retries applies each once; both are audited.
 *
 * <p>They are LOCAL operations for the idempotency library: what they change is fenced by the
 * payment key's own state, so a retry after a crash can only find the work done (and is refused),
 * never do it twice.
 */
@Path("/v1/admin")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed("operator")
@Tag(name = "operator")
public class ResolutionsResource {

  @Inject OperatorActions actions;
  @Context SecurityContext security;

  /**
   * @param outcome {@code charged} or {@code not-charged}
   * @param chargeId the gateway's charge id (for {@code charged})
   * @param reason why; mandatory, kept in the audit
   * @param override record {@code charged} although the gateway no longer knows the charge
   */
  public record ResolutionRequest(
      String tenant,
      String key,
      String outcome,
      String chargeId,
      String reason,
      Boolean override) {}

  @POST
  @Path("payment-resolutions")
  @Consumes(MediaType.APPLICATION_JSON)
  @Idempotent(operation = "admin.payment-resolution", ttl = "PT24H")
  @Operation(
      summary = "Resolve an unknown-outcome payment",
      description =
          "200 resolved; 422 operator-action-refused (nothing changed: no reason, a charge of"
              + " another amount, currency or order, a key not processing); 409"
              + " override-confirmation-needed (the gateway no longer knows the charge: send again"
              + " with override true and a new key); 202 with a proposalId: the override was"
              + " proposed and takes effect when a different operator approves it; 503"
              + " operator-action-failed (the gateway could not be asked).")
  public Response resolve(ResolutionRequest request) {
    if (request == null
        || blank(request.tenant())
        || blank(request.key())
        || blank(request.outcome())) {
      return OperatorProblems.badRequest("tenant, key and outcome are required");
    }
    KeyRef ref = new KeyRef(request.tenant(), "payments.charge", request.key());
    ActionResult result =
        switch (request.outcome()) {
          case "charged" ->
              actions.resolveAsCharged(
                  operator(),
                  ref,
                  request.chargeId(),
                  request.reason(),
                  Boolean.TRUE.equals(request.override()));
          case "not-charged" -> actions.resolveAsNotCharged(operator(), ref, request.reason());
          default -> null;
        };
    if (result == null) {
      return OperatorProblems.badRequest("outcome must be charged or not-charged");
    }
    return answer(result);
  }

  @POST
  @Path("purges")
  @Consumes(MediaType.APPLICATION_JSON)
  @Idempotent(operation = "admin.purge", ttl = "PT1H")
  @Operation(summary = "Purge expired idempotency keys now, on this node")
  public Response purge() {
    return answer(actions.purgeNow(operator()));
  }

  /** Override proposals waiting for a second operator (docs/operations.md). */
  public record ProposalPage(List<OverrideProposal> items) {}

  @GET
  @Path("override-proposals")
  @Operation(summary = "Override resolutions waiting for a second operator, oldest first")
  public Response pendingOverrides() {
    return Response.ok(new ProposalPage(actions.pendingOverrides())).build();
  }

  @POST
  @Path("override-proposals/{id}/approval")
  @Consumes(MediaType.APPLICATION_JSON)
  @Idempotent(operation = "admin.override-approval", ttl = "PT24H")
  @Operation(
      summary = "Approve another operator's override proposal, which resolves the key",
      description =
          "200 resolved; 404 override-proposal-not-found; 422 operator-action-refused (your own"
              + " proposal, one already approved, or the resolution refused); 503"
              + " operator-action-failed (the proposal waits again).")
  public Response approveOverride(@PathParam("id") long id) {
    if (actions.findOverride(id).isEmpty()) {
      return OperatorProblems.proposalNotFound(id);
    }
    return answer(actions.approveOverride(operator(), id));
  }

  private static Response answer(ActionResult result) {
    if (result.status() == ActionResult.Status.PROPOSED) {
      return Response.accepted(result).type(MediaType.APPLICATION_JSON).build();
    }
    return result.succeeded()
        ? Response.ok(result).type(MediaType.APPLICATION_JSON).build()
        : OperatorProblems.of(result);
  }

  private String operator() {
    return security.getUserPrincipal().getName();
  }

  private static boolean blank(String text) {
    return text == null || text.isBlank();
  }
}
