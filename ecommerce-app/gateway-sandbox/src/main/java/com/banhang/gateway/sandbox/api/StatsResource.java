package com.banhang.gateway.sandbox.api;

import com.banhang.gateway.sandbox.charge.ChargeCounts;
import com.banhang.gateway.sandbox.charge.ChargeService;
import com.banhang.gateway.sandbox.charge.InvalidRequestException;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code /v1/stats}: how many charges the processor made, the ground truth the shop's tests count
 * double charges against. Counts include charges whose key has expired.
 */
@Path("/stats")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class StatsResource {

  private static final int MAX_ORDER_REFERENCE_LENGTH = 128;

  @Inject ChargeService charges;

  /**
   * With {@code orderReference}: the counts of that order. Without: totals, and succeeded charges
   * per order.
   */
  @GET
  public Object stats(@QueryParam("orderReference") String orderReference) {
    if (orderReference == null) {
      ChargeCounts totals = charges.totals();
      return new TotalStatsJson(
          totals.succeeded(), totals.declined(), charges.succeededByOrderReference());
    }
    if (orderReference.isEmpty() || orderReference.length() > MAX_ORDER_REFERENCE_LENGTH) {
      throw new InvalidRequestException(
          "invalid_request",
          "orderReference: size must be between 1 and " + MAX_ORDER_REFERENCE_LENGTH);
    }
    ChargeCounts counts = charges.countsFor(orderReference);
    return new OrderStatsJson(orderReference, counts.succeeded(), counts.declined());
  }
}
