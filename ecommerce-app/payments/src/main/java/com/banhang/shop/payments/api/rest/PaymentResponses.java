package com.banhang.shop.payments.api.rest;

import com.banhang.idempotency.ProblemDetails;
import com.banhang.shop.payments.application.SettledPaymentResponses;
import com.banhang.shop.payments.domain.model.Payment;
import com.banhang.shop.payments.domain.model.PaymentStatus;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;

/**
 * The answer a settled payment gives its client: the same whether the request itself recorded it or
 * reconciliation did later, so that a replay is indistinguishable from the original. The
 * application layer stores it as the key's response through {@link SettledPaymentResponses}.
 */
@ApplicationScoped
public class PaymentResponses implements SettledPaymentResponses {

  @Override
  public Response forSettled(Payment payment) {
    if (payment.status() == PaymentStatus.CAPTURED) {
      // Relative to the API's base URI; resolved the same way on every replay.
      return Response.created(URI.create("v1/payments/" + payment.id()))
          .type(MediaType.APPLICATION_JSON)
          .entity(PaymentView.of(payment))
          .build();
    }
    if (payment.status() == PaymentStatus.DECLINED) {
      return new ProblemDetails(
              402,
              "payment-declined",
              "Payment declined",
              "the card was declined; pay with another payment method under a new Idempotency-Key")
          .with("paymentId", payment.id())
          .with("orderId", payment.orderId())
          .toResponse();
    }
    throw new IllegalStateException("payment " + payment.id() + " is " + payment.status());
  }
}
