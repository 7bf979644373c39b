package com.banhang.shop.payments.api.rest;

import com.banhang.shop.payments.api.LateChargeReport;
import com.banhang.shop.payments.api.LateChargeSweep;
import com.banhang.shop.payments.api.Reconciliation;
import com.banhang.shop.payments.api.ReconciliationReport;
import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Duration;
import java.time.format.DateTimeParseException;

/**
 * {@code POST /api/v1/admin/reconciliations}: an operator runs reconciliation now (the console's
 * button). Operator role only (web.xml, and here too). It consumes JSON (an empty body is fine)
 * only so that a browser cannot send it from another site as a simple form POST carrying an
 * operator's cached credentials: a JSON POST needs a CORS preflight, which this server never grants
 * (docs/security.md). {@code minAge} (ISO-8601, default the schedule's) lets an operator include
 * younger keys once they know no request is still running for them.
 *
 * <p>{@code POST /api/v1/admin/reconciliations/late-charges} runs the late-charge sweep now over
 * every abandoned attempt within the gateway's key retention (docs/payments.md, "Late charges").
 */
@Path("/v1/admin/reconciliations")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed("operator")
public class ReconciliationResource {

  @Inject Reconciliation reconciliation;
  @Inject LateChargeSweep lateChargeSweep;

  @POST
  @Consumes(MediaType.APPLICATION_JSON)
  public ReconciliationReport runNow(@QueryParam("minAge") String minAge) {
    return minAge == null
        ? reconciliation.reconcileDueKeys()
        : reconciliation.reconcileKeysOlderThan(parse(minAge));
  }

  @POST
  @Path("late-charges")
  @Consumes(MediaType.APPLICATION_JSON)
  public LateChargeReport sweepLateChargesNow() {
    return lateChargeSweep.sweep(Duration.ZERO);
  }

  private static Duration parse(String minAge) {
    try {
      Duration age = Duration.parse(minAge);
      if (age.isNegative()) {
        throw new BadRequestException("minAge must not be negative");
      }
      return age;
    } catch (DateTimeParseException e) {
      throw new BadRequestException("minAge must be an ISO-8601 duration such as PT30S");
    }
  }
}
