package com.banhang.shop.payments.application;

import com.banhang.idempotency.ClaimLostException;
import com.banhang.idempotency.ClaimedKey;
import com.banhang.idempotency.IdempotencyKeys;
import com.banhang.idempotency.IdempotentRequest;
import com.banhang.idempotency.OutcomeUnknownException;
import com.banhang.idempotency.ProblemDetails;
import com.banhang.shop.payments.api.TimelineEntry.Kind;
import com.banhang.shop.payments.domain.model.Payment;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * Paying an order, {@code payments.charge} (docs/payments.md, "payments.charge in three steps"): at
 * most one charge per Idempotency-Key, never with a transaction open across the gateway call.
 *
 * <ol>
 *   <li>commit a PENDING attempt, with the gateway key derived from the claim, in a transaction of
 *       its own ({@link PaymentService#startPayment});
 *   <li>charge under that gateway key with no transaction open (the adapter retries under the same
 *       key);
 *   <li>record the result and complete the key with the client's answer in ONE transaction: the
 *       payment, the order's PAID status and the completed key commit together or not at all.
 * </ol>
 *
 * <p>The key is completed here and nowhere else: by the request itself ({@link
 * IdempotentRequest#complete}), and for a claim whose request is gone, by reconciliation and
 * operators ({@link #completeClaim}, through {@link IdempotencyKeys#complete}). All of them store
 * the same answer ({@link #answer}), so a replay completed by reconciliation cannot be told from
 * one completed by its request.
 *
 * <p>The call runs to its end on the request thread even if the client goes away.
 */
@ApplicationScoped
public class PayOrder {

  /** The operation whose Idempotency-Keys pay orders. */
  public static final String OPERATION = "payments.charge";

  /** The problem every retry gets while a payment's outcome is unknown (docs/problems.md). */
  public static final String OUTCOME_UNKNOWN = "payment-outcome-unknown";

  /**
   * A customer's request to pay an order: the order's total in the currency's minor unit, paid with
   * a processor's payment-method token (never card data). Already validated at the boundary.
   */
  public record Command(
      String tenantId, String orderId, long amount, String currency, String paymentMethod) {}

  @Inject PaymentService payments;
  @Inject PaymentGateway gateway;
  @Inject OneTransaction transaction;
  @Inject IdempotentRequest currentRequest;
  @Inject IdempotencyKeys keys;
  @Inject Timeline timeline;

  /**
   * MicroProfile Telemetry's tracer (docs/observability.md, "Traces"); a no-op one until injected,
   * and with the SDK off.
   */
  @Inject Tracer tracer = OpenTelemetry.noop().getTracer(OPERATION);

  /**
   * Pays the order under the request's claim of its key.
   *
   * @return the answer built from the bytes stored as the key's result: 201 with the payment, or
   *     the 402 {@code payment-declined} problem
   * @throws OutcomeUnknownException when the gateway may have charged but the result is not
   *     recorded: the attempt stays PENDING and the key processing, for reconciliation
   * @throws GatewayUnavailableException when nothing was charged: the attempt is abandoned, and the
   *     library releases the key
   * @throws GatewayRefusedException when the processor refused the request: the attempt is
   *     abandoned, and the library stores the refusal
   * @throws ClaimLostException when the request no longer owns its key (reconciliation settled it)
   */
  public Response pay(Command command) {
    ClaimedKey claim = currentRequest.claim().orElseGet(() -> unprotected(command.tenantId()));
    Optional<Payment> recordedLate = payments.capturedEarlier(command, claim);
    if (recordedLate.isPresent()) {
      // The late-charge sweep recorded this key's charge after its release: the same intent, the
      // same charge. Answer with it; nothing is sent to the gateway.
      return transaction.run(() -> currentRequest.complete(answer(recordedLate.get())));
    }
    Payment payment = traced("payments.start", () -> payments.startPayment(command, claim));
    PaymentGateway.Charge charge;
    List<PaymentGateway.FailedTry> failedTries = new ArrayList<>();
    try {
      charge = gateway.charge(PaymentGateway.ChargeRequest.of(payment), failedTries::add);
    } catch (GatewayOutcomeUnknownException e) {
      tried(payment, failedTries);
      throw unknown(payment, "the payment gateway did not confirm payment %s in time", e);
    } catch (GatewayUnavailableException | GatewayRefusedException e) {
      tried(payment, failedTries);
      abandon(payment, e);
      throw e;
    }
    tried(payment, failedTries);
    try {
      return traced(
          "payments.record",
          () ->
              transaction.run(
                  () -> {
                    timeline.inTransaction(
                        payment, Kind.GATEWAY_ANSWERED, Timeline.SHOP, answered(charge));
                    Payment settled = payments.recordCharge(payment.id(), charge, Timeline.SHOP);
                    // The key is completed last (docs/sqlserver.md, "The key is written last").
                    return currentRequest.complete(answer(settled));
                  }));
    } catch (ClaimLostException e) {
      throw e;
    } catch (RuntimeException e) {
      // The gateway answered but its answer could not be recorded: releasing the key now would
      // orphan the PENDING attempt. Leave it to reconciliation, which asks the gateway again.
      throw unknown(payment, "payment %s was answered by the gateway but not recorded", e);
    }
  }

  /**
   * {@code work}, a transaction of its own, in a span that ends after its commit: {@code
   * payments.start} (the PENDING attempt) and {@code payments.record} (the result, the order and
   * the completed key). Attributes name the operation only; a failure marks the span with the
   * exception's type, never its message.
   */
  private <T> T traced(String name, Supplier<T> work) {
    Span span =
        tracer.spanBuilder(name).setAttribute("idempotency.operation", OPERATION).startSpan();
    try (Scope scope = span.makeCurrent()) {
      return work.get();
    } catch (RuntimeException e) {
      span.setStatus(StatusCode.ERROR);
      span.setAttribute("error.type", e.getClass().getName());
      throw e;
    } finally {
      span.end();
    }
  }

  /** What the gateway answered, in words for the timeline. */
  private static String answered(PaymentGateway.Charge charge) {
    return charge.succeeded()
        ? "the gateway charged: charge " + charge.chargeId()
        : "the gateway declined the card: charge " + charge.chargeId();
  }

  /**
   * The failed tries of the call, each with the time it was sent, in a transaction of its own:
   * written after the call, since no transaction may be open across it.
   */
  private void tried(Payment payment, List<PaymentGateway.FailedTry> failedTries) {
    for (PaymentGateway.FailedTry failed : failedTries) {
      timeline.alone(payment, Kind.GATEWAY_TRY_FAILED, Timeline.SHOP, failed.what(), failed.at());
    }
  }

  /**
   * Records a charge for a claim whose request is gone and completes its key with the answer the
   * client would have had, fenced by the claim's attempt: reconciliation, and an operator's
   * resolution (inside the transaction that also writes its audit entry, which this one joins).
   *
   * @return the payment as it now stands: settled by this charge, or as another node settled it
   * @throws ClaimLostException when the claim is no longer the key's current one; the transaction
   *     rolls back
   */
  @Transactional
  public Payment completeClaim(ClaimedKey claim, String paymentId, PaymentGateway.Charge charge) {
    return completeClaim(claim, paymentId, charge, Timeline.RECONCILIATION);
  }

  /**
   * As {@link #completeClaim(ClaimedKey, String, PaymentGateway.Charge)}, with the settlement
   * written to the payment's timeline by {@code actor} (an operator's resolution).
   */
  @Transactional
  public Payment completeClaim(
      ClaimedKey claim, String paymentId, PaymentGateway.Charge charge, String actor) {
    Payment payment = payments.recordCharge(paymentId, charge, actor);
    keys.complete(claim, answer(payment));
    return payment;
  }

  /**
   * Completes the key of a claim whose payment is already settled (recorded, its key not
   * completed): reconciliation, fenced by the claim's attempt.
   *
   * @throws ClaimLostException when the claim is no longer the key's current one
   */
  public void completeClaim(ClaimedKey claim, Payment settled) {
    keys.complete(claim, answer(settled));
  }

  /**
   * The answer a settled payment gives the client, the one every completion of its key stores: 201
   * with the payment and its location relative to the API's base URI (resolved the same way on
   * every replay), or the 402 problem for a declined card.
   *
   * @throws IllegalStateException when the payment is not settled
   */
  static Response answer(Payment payment) {
    if (payment.status() == Payment.Status.CAPTURED) {
      return Response.created(URI.create("v1/payments/" + payment.id()))
          .type(MediaType.APPLICATION_JSON)
          .entity(PaymentView.of(payment))
          .build();
    }
    if (payment.status() == Payment.Status.DECLINED) {
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

  /**
   * A request the library did not claim, which happens only under a comparison-only mode
   * (idempotency.operations.payments.charge.mode=off, or optional without a key): every request is
   * then its own intent, with a gateway key of its own, as a shop without idempotency would pay. It
   * exists to measure what idempotency prevents (docs/proof.md); the shop logs that mode at SEVERE
   * when it starts, and its readiness check stays down unless the mode is acknowledged
   * (docs/configuration.md, "Operation modes").
   */
  private static ClaimedKey unprotected(String tenantId) {
    return new ClaimedKey(tenantId, OPERATION, "unprotected-" + UUID.randomUUID(), 1);
  }

  /** Certainly not charged; if even that cannot be recorded, reconciliation will find out. */
  private void abandon(Payment payment, RuntimeException why) {
    try {
      payments.abandon(
          payment.id(),
          Timeline.SHOP,
          why instanceof GatewayRefusedException
              ? "the processor refused the request (" + why.getMessage() + "): nothing was charged"
              : "certainly not charged (" + why.getMessage() + ")");
    } catch (RuntimeException e) {
      throw unknown(payment, "payment %s could not be settled", e);
    }
  }

  /**
   * The outcome is unknown: the key stays processing for reconciliation. Written to the timeline in
   * a transaction of its own (nothing else is written here), before the 504 is answered.
   */
  private OutcomeUnknownException unknown(Payment payment, String detail, Exception cause) {
    String message = String.format(detail, payment.id());
    timeline.alone(
        payment,
        Kind.OUTCOME_UNKNOWN,
        Timeline.SHOP,
        message
            + (cause == null || cause.getMessage() == null ? "" : " (" + cause.getMessage() + ")")
            + "; the customer is answered 504 and the key waits for reconciliation");
    return new OutcomeUnknownException(OUTCOME_UNKNOWN, message, cause);
  }
}
