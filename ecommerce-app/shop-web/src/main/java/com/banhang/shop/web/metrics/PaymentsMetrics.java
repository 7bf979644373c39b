package com.banhang.shop.web.metrics;

import com.banhang.shop.payments.api.GatewayCallFailed;
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
 * to the gateway (every try, also those retried). Every series exists from the start at zero, so
 * that a rate or an alert on it has something to read before the first event.
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

  @Inject MetricRegistry registry;

  void registerAtStart(@Observes @Initialized(ApplicationScoped.class) Object started) {
    for (ReconciliationReport.Outcome outcome : ReconciliationReport.Outcome.values()) {
      registry.counter(RECONCILIATION_OUTCOMES, outcomeTag(outcome));
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
    registry.counter(RECONCILIATION_OUTCOMES, outcomeTag(checked.outcome())).inc();
  }

  void countGatewayError(@Observes GatewayCallFailed failed) {
    registry.counter(GATEWAY_ERRORS, new Tag("call", failed.call())).inc();
  }

  private static Tag outcomeTag(ReconciliationReport.Outcome outcome) {
    return new Tag("outcome", outcome.name().toLowerCase(Locale.ROOT));
  }
}
