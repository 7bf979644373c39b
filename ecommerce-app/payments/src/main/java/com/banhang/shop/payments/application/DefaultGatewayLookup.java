package com.banhang.shop.payments.application;

import com.banhang.shop.payments.api.GatewayLookup;
import com.banhang.shop.payments.api.GatewayLookup.GatewayAnswer.Finding;
import com.banhang.shop.payments.domain.model.Payment;
import com.banhang.shop.payments.domain.model.PaymentRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * {@link GatewayLookup}: asks the gateway now for the charge under a payment's gateway key, as
 * reconciliation would, and says what it amounts to, without recording or changing anything. No
 * transaction is open while the gateway is asked.
 */
@ApplicationScoped
public class DefaultGatewayLookup implements GatewayLookup {

  private static final Logger LOG = Logger.getLogger(DefaultGatewayLookup.class.getName());

  @Inject PaymentRepository payments;
  @Inject PaymentGateway gateway;

  @Override
  public GatewayAnswer ask(String paymentId) {
    Optional<Payment> found =
        paymentId == null || paymentId.isBlank()
            ? Optional.empty()
            : payments.find(paymentId.strip());
    if (found.isEmpty()) {
      return new GatewayAnswer(
          Finding.NO_SUCH_PAYMENT,
          null,
          0,
          null,
          null,
          "the shop has no payment " + paymentId + "; the gateway was not asked",
          Instant.now());
    }
    Payment payment = found.get();
    Instant askedAt = Instant.now();
    Optional<PaymentGateway.ChargeDetails> charge;
    try {
      charge = gateway.findByKey(payment.gatewayKey());
    } catch (RuntimeException e) {
      // GatewayUnavailableException normally; anything else the adapter lets through is the same
      // for an operator: the gateway could not be asked now.
      if (!(e instanceof GatewayUnavailableException)) {
        LOG.log(Level.WARNING, "asking the gateway about payment " + payment.id() + " failed", e);
      }
      return new GatewayAnswer(
          Finding.UNAVAILABLE,
          null,
          0,
          null,
          null,
          "the gateway could not be asked for the charge under gateway key "
              + payment.gatewayKey()
              + " ("
              + e.getMessage()
              + "); try again later",
          askedAt);
    }
    if (charge.isEmpty()) {
      return new GatewayAnswer(
          Finding.NOT_FOUND,
          null,
          0,
          null,
          null,
          "the gateway has no charge under gateway key "
              + payment.gatewayKey()
              + " (it keeps keys for a limited time only)",
          askedAt);
    }
    PaymentGateway.ChargeDetails details = charge.get();
    List<String> differences = details.differencesFrom(payment);
    String said =
        "the gateway has "
            + (details.succeeded() ? "succeeded" : "declined")
            + " charge "
            + details.chargeId()
            + " of "
            + details.amount()
            + " "
            + details.currency()
            + " for order "
            + details.orderReference()
            + " under gateway key "
            + payment.gatewayKey();
    if (!differences.isEmpty()) {
      return answer(
          Finding.MISMATCH,
          details,
          said + ", but it is not this payment's: " + String.join("; ", differences),
          askedAt);
    }
    return details.succeeded()
        ? answer(Finding.CHARGED, details, said + ": the customer was charged", askedAt)
        : answer(Finding.DECLINED, details, said + ": nothing was taken", askedAt);
  }

  private static GatewayAnswer answer(
      Finding finding, PaymentGateway.ChargeDetails charge, String detail, Instant askedAt) {
    return new GatewayAnswer(
        finding,
        charge.chargeId(),
        charge.amount(),
        charge.currency(),
        charge.orderReference(),
        detail,
        askedAt);
  }
}
