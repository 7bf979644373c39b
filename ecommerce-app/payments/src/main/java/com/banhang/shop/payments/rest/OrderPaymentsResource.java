package com.banhang.shop.payments.rest;

import com.banhang.idempotency.Idempotent;
import com.banhang.idempotency.SideEffects;
import com.banhang.shop.payments.application.PayOrder;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;

/**
 * {@code /api/v1/orders/{orderId}/payments}: paying an order ({@code payments.charge}). HTTP only:
 * the body and the caller become a {@link PayOrder.Command}; the use case answers with the response
 * its key stored.
 */
@Path("/v1/orders/{orderId}/payments")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class OrderPaymentsResource {

  /**
   * Body of {@code POST /api/v1/orders/{orderId}/payments}. The amount is in the currency's minor
   * unit and must equal the order's total; the payment method is a processor token, never card
   * data.
   */
  public record PayOrderRequest(
      @NotNull @Positive Long amount,
      @NotNull @Pattern(regexp = "[A-Z]{3}", message = "must be an ISO 4217 code such as VND")
          String currency,
      @NotNull
          @Size(max = 100)
          @Pattern(
              regexp = "pm_[A-Za-z0-9_]+",
              message = "must be a payment-method token such as pm_card_ok")
          String paymentMethod) {}

  @Inject PayOrder payOrder;
  @Context SecurityContext security;

  /**
   * payments.charge (docs/payments.md): a remote operation, so the library commits the claim before
   * this method runs and no transaction is open here; {@link PayOrder} completes the key itself.
   */
  @POST
  @Consumes(MediaType.APPLICATION_JSON)
  @Idempotent(
      operation = PayOrder.OPERATION,
      ttl = "P7D",
      sideEffects = SideEffects.REMOTE,
      outcomeUnknownProblem = PayOrder.OUTCOME_UNKNOWN)
  public Response pay(
      @PathParam("orderId") String orderId, @NotNull @Valid PayOrderRequest request) {
    // The tenant is the authenticated customer; nothing in the request can name another.
    return payOrder.pay(
        new PayOrder.Command(
            security.getUserPrincipal().getName(),
            orderId,
            request.amount(),
            request.currency(),
            request.paymentMethod()));
  }
}
