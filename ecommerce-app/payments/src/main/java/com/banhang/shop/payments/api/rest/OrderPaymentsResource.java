package com.banhang.shop.payments.api.rest;

import com.banhang.idempotency.ClaimLostException;
import com.banhang.idempotency.ClaimedKey;
import com.banhang.idempotency.Idempotent;
import com.banhang.idempotency.IdempotentRequest;
import com.banhang.idempotency.OutcomeUnknownException;
import com.banhang.idempotency.SideEffects;
import com.banhang.shop.payments.application.ChargeCompletion;
import com.banhang.shop.payments.application.GatewayCharge;
import com.banhang.shop.payments.application.GatewayOutcomeUnknownException;
import com.banhang.shop.payments.application.GatewayRefusedException;
import com.banhang.shop.payments.application.GatewayUnavailableException;
import com.banhang.shop.payments.application.PaymentGateway;
import com.banhang.shop.payments.application.PaymentService;
import com.banhang.shop.payments.application.StartPaymentCommand;
import com.banhang.shop.payments.domain.model.Payment;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import java.util.UUID;

/** {@code /api/v1/orders/{orderId}/payments}: paying an order ({@code payments.charge}). */
@Path("/v1/orders/{orderId}/payments")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class OrderPaymentsResource {

  /** The problem every retry gets while a payment's outcome is unknown (docs/problems.md). */
  static final String OUTCOME_UNKNOWN = "payment-outcome-unknown";

  @Inject PaymentService payments;
  @Inject PaymentGateway gateway;
  @Inject ChargeCompletion completion;
  @Inject IdempotentRequest idempotentRequest;
  @Context SecurityContext security;

  /**
   * payments.charge, in three steps and never with a transaction open across the gateway call:
   * commit a PENDING attempt; charge under the gateway key derived from the claim (retried under
   * that key); record the result and complete the key in one transaction. The call runs to its end
   * on the request thread even if the client goes away.
   */
  @POST
  @Consumes(MediaType.APPLICATION_JSON)
  @Idempotent(
      operation = "payments.charge",
      ttl = "P7D",
      sideEffects = SideEffects.REMOTE,
      outcomeUnknownProblem = OUTCOME_UNKNOWN)
  public Response pay(
      @PathParam("orderId") String orderId, @NotNull @Valid PayOrderRequest request) {
    ClaimedKey claim = idempotentRequest.claim().orElseGet(this::unprotectedRequest);
    StartPaymentCommand command =
        new StartPaymentCommand(
            tenant(),
            orderId,
            request.amount(),
            request.currency(),
            request.paymentMethod(),
            claim);
    java.util.Optional<Payment> recordedLate = payments.capturedEarlier(command);
    if (recordedLate.isPresent()) {
      // The late-charge sweep recorded this key's charge after its release: the same intent, the
      // same charge. Answer with it; nothing is sent to the gateway.
      return completion.completeRequestWithEarlierCapture(recordedLate.get());
    }
    Payment payment = payments.startAttempt(command);
    GatewayCharge charge;
    try {
      charge = gateway.charge(payments.gatewayRequest(payment));
    } catch (GatewayOutcomeUnknownException e) {
      throw unknown(payment, "the payment gateway did not confirm payment %s in time", e);
    } catch (GatewayUnavailableException | GatewayRefusedException e) {
      abandon(payment);
      throw e;
    }
    try {
      return completion.completeRequest(payment.id(), charge);
    } catch (ClaimLostException e) {
      throw e;
    } catch (RuntimeException e) {
      // The gateway answered but its answer could not be recorded: releasing the key now would
      // orphan the PENDING attempt. Leave it to reconciliation, which asks the gateway again.
      throw unknown(payment, "payment %s was answered by the gateway but not recorded", e);
    }
  }

  /**
   * A request the library did not claim, which happens only under the comparison-only switch
   * (idempotency.operations.payments.charge.mode=off, or optional without a key): every request is
   * then its own intent, with a gateway key of its own, as a shop without idempotency would pay. It
   * exists to measure what idempotency prevents (docs/proof.md); the shop logs that mode at SEVERE
   * when it starts, and its readiness check stays down unless the mode is acknowledged
   * (docs/configuration.md, "Comparison-only switch").
   */
  private ClaimedKey unprotectedRequest() {
    return new ClaimedKey(tenant(), "payments.charge", "unprotected-" + UUID.randomUUID(), 1);
  }

  /** Certainly not charged; if even that cannot be recorded, reconciliation will find out. */
  private void abandon(Payment payment) {
    try {
      payments.abandon(payment.id());
    } catch (RuntimeException e) {
      throw unknown(payment, "payment %s could not be settled", e);
    }
  }

  private static OutcomeUnknownException unknown(Payment payment, String detail, Exception cause) {
    return new OutcomeUnknownException(OUTCOME_UNKNOWN, String.format(detail, payment.id()), cause);
  }

  private String tenant() {
    return security.getUserPrincipal().getName();
  }
}
