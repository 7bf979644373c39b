package com.banhang.shop.payments.rest;

import com.banhang.shop.payments.application.PaymentService;
import com.banhang.shop.payments.application.PaymentView;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;

/** {@code /api/v1/payments/{paymentId}}: a payment of the caller's tenant. */
@Path("/v1/payments")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class PaymentResource {

  @Inject PaymentService payments;
  @Context SecurityContext security;

  @GET
  @Path("{paymentId}")
  public PaymentView get(@PathParam("paymentId") String paymentId) {
    return PaymentView.of(payments.payment(security.getUserPrincipal().getName(), paymentId));
  }
}
