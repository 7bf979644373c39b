package com.banhang.shop.admin.rest;

import com.banhang.shop.admin.application.LateCharges;
import com.banhang.shop.payments.api.FlaggedLateChargeView;
import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * {@code GET /api/v1/admin/late-charges}: what the console's Late charges view shows, for
 * automation (docs/operations.md, "Late charges"). Read only, each read audited; operator role only
 * (web.xml).
 */
@Path("/v1/admin/late-charges")
@RolesAllowed("operator")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "operator")
public class LateChargesResource {

  @Inject LateCharges lateCharges;
  @Context SecurityContext security;

  /**
   * One page of flagged late charges nobody has marked handled; {@code needingOperator} counts the
   * double charges and mismatches among all of them.
   */
  public record LateChargePage(
      int total, long needingOperator, int offset, List<FlaggedLateChargeView> items) {}

  @GET
  @Operation(
      summary = "Late charges the sweep flagged, newest first",
      description =
          "Charges found under an abandoned attempt's gateway key that the shop did not record:"
              + " DOUBLE_CHARGE (the customer was charged twice: refund one at the processor),"
              + " MISMATCH (not the attempt's amount, currency or order) or DECLINED (nothing"
              + " charged). Paged by offset and limit (at most 500).")
  public Response list(@QueryParam("offset") Integer offset, @QueryParam("limit") Integer limit) {
    PageRequest page = PageRequest.of(offset, limit);
    if (page == null) {
      return OperatorProblems.badRequest(PageRequest.OUT_OF_RANGE);
    }
    return Response.ok(
            new LateChargePage(
                lateCharges.count(),
                lateCharges.countNeedingOperator(),
                page.offset(),
                lateCharges.page(
                    security.getUserPrincipal().getName(), page.offset(), page.limit())))
        .build();
  }
}
