package com.banhang.shop.admin.rest;

import com.banhang.shop.admin.application.OperatorActions;
import com.banhang.shop.payments.api.LateChargeReport;
import com.banhang.shop.payments.api.ReconciliationReport;
import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * {@code POST /api/v1/admin/reconciliations}: an operator runs reconciliation now (the console's
 * button), and {@code POST /api/v1/admin/reconciliations/late-charges}: the late-charge sweep now
 * over every abandoned attempt within the gateway's key retention (docs/payments.md, "Late
 * charges"). Operator role only (web.xml, and here too); like every state-changing operator call
 * they need a JSON Content-Type and the guard header ({@link OperatorRequestGuard}). Each run is
 * audited under the authenticated operator's name. {@code minAge} (ISO-8601, default the
 * schedule's) lets an operator include younger keys once they know no request is still running for
 * them.
 */
@Path("/v1/admin/reconciliations")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed("operator")
@Tag(name = "operator")
public class ReconciliationsResource {

  @Inject OperatorActions actions;
  @Context SecurityContext security;

  @POST
  @Consumes(MediaType.APPLICATION_JSON)
  @Operation(summary = "Run reconciliation now; the report counts each finding")
  public Response runNow(@QueryParam("minAge") String minAge) {
    Duration age = null;
    if (minAge != null) {
      try {
        age = Duration.parse(minAge);
      } catch (DateTimeParseException e) {
        return OperatorProblems.badRequest("minAge must be an ISO-8601 duration such as PT30S");
      }
      if (age.isNegative()) {
        return OperatorProblems.badRequest("minAge must not be negative");
      }
    }
    ReconciliationReport report = actions.reconcileRun(operator(), age);
    return Response.ok(report).build();
  }

  @POST
  @Path("late-charges")
  @Consumes(MediaType.APPLICATION_JSON)
  @Operation(summary = "Run the late-charge sweep now; the report counts each finding")
  public Response sweepLateChargesNow() {
    LateChargeReport report = actions.sweepLateCharges(operator());
    return Response.ok(report).build();
  }

  private String operator() {
    return security.getUserPrincipal().getName();
  }
}
