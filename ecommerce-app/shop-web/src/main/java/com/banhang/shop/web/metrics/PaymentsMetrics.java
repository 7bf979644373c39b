package com.banhang.shop.web.metrics;

import com.banhang.shop.payments.api.GatewayCallFailed;
import com.banhang.shop.payments.api.GatewayWebhookCounted;
import com.banhang.shop.payments.api.LateChargeChecked;
import com.banhang.shop.payments.api.LateChargeReport;
import com.banhang.shop.payments.api.ReconciliationChecked;
import com.banhang.shop.payments.api.ReconciliationReport;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Locale;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

/**
 * Payments at /metrics: {@code payments_reconciliation_outcomes_total{outcome}}, what became of
 * every key reconciliation examined, and {@code payments_gateway_errors_total{call}}, failed calls
 * to the gateway (every try, also those retried), and {@code payments_late_charges_total{outcome}},
 * what the late-charge sweep found for each abandoned attempt it examined ({@code double_charge}
 * and {@code mismatch} need an operator: alert on them), and {@code
 * payments_gateway_webhooks_total{result}}, the processor's webhooks (alert on {@code flagged} and
 * {@code parked}). Every series exists from the start at zero, so that a rate or an alert on it has
 * something to read before the first event.
 */
@ApplicationScoped
public class PaymentsMetrics {

  private static final Metadata RECONCILIATION_OUTCOMES =
      Metadata.builder()
          .withName("payments.reconciliation.outcomes")
          .withDescription(
              "payments.charge keys examined by reconciliation, by what became of them")
          .build();

  private static final Metadata GATEWAY_ERRORS =
      Metadata.builder()
          .withName("payments.gateway.errors")
          .withDescription(
              "Failed calls to the payment gateway (transport error or unexpected status), per try")
          .build();

  private static final Metadata LATE_CHARGES =
      Metadata.builder()
          .withName("payments.late.charges")
          .withDescription(
              "Abandoned payments examined by the late-charge sweep, by what it found;"
                  + " double_charge and mismatch need an operator")
          .build();

  private static final Metadata GATEWAY_WEBHOOKS =
      Metadata.builder()
          .withName("payments.gateway.webhooks")
          .withDescription(
              "The processor's webhooks: deliveries refused, received or duplicate, and what the"
                  + " processing of each event did; flagged and parked need an operator")
          .build();

  @Inject MetricRegistry registry;

  void registerAtStart(@Observes @Initialized(ApplicationScoped.class) Object started) {
    for (ReconciliationReport.Finding finding : ReconciliationReport.Finding.values()) {
      registry.counter(RECONCILIATION_OUTCOMES, outcomeTag(finding));
    }
    for (LateChargeReport.Finding finding : LateChargeReport.Finding.values()) {
      registry.counter(LATE_CHARGES, lateTag(finding));
    }
    for (String result : GatewayWebhookCounted.RESULTS) {
      registry.counter(GATEWAY_WEBHOOKS, new Tag("result", result));
    }
    for (String call :
        List.of(
            GatewayCallFailed.CHARGE,
            GatewayCallFailed.FIND_BY_KEY,
            GatewayCallFailed.FIND_CHARGE)) {
      registry.counter(GATEWAY_ERRORS, new Tag("call", call));
    }
  }

  void countReconciliation(@Observes ReconciliationChecked checked) {
    registry.counter(RECONCILIATION_OUTCOMES, outcomeTag(checked.finding())).inc();
  }

  void countLateCharge(@Observes LateChargeChecked checked) {
    registry.counter(LATE_CHARGES, lateTag(checked.finding())).inc();
  }

  private static Tag lateTag(LateChargeReport.Finding finding) {
    return new Tag("outcome", finding.name().toLowerCase(Locale.ROOT));
  }

  void countGatewayWebhook(@Observes GatewayWebhookCounted counted) {
    registry.counter(GATEWAY_WEBHOOKS, new Tag("result", counted.result())).inc();
  }

  void countGatewayError(@Observes GatewayCallFailed failed) {
    registry.counter(GATEWAY_ERRORS, new Tag("call", failed.call())).inc();
  }

  private static Tag outcomeTag(ReconciliationReport.Finding finding) {
    return new Tag("outcome", finding.name().toLowerCase(Locale.ROOT));
  }
}
