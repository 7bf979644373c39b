package com.banhang.shop.payments.infrastructure.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.when;

import com.banhang.shop.payments.application.GatewayOutcomeUnknownException;
import com.banhang.shop.payments.application.GatewayUnavailableException;
import com.banhang.shop.payments.application.PaymentGateway;
import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;
import org.eclipse.microprofile.faulttolerance.exceptions.CircuitBreakerOpenException;
import org.eclipse.microprofile.faulttolerance.exceptions.FaultToleranceException;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

/**
 * What a charge call that Fault Tolerance ended means (docs/payments.md): an open circuit or a full
 * bulkhead refuses a try before it is sent, so with no earlier try that may have charged the card
 * was certainly not charged ("not sent": the attempt is abandoned and the key released); a timeout
 * comes after the request was sent, an unknown outcome. The annotations themselves run only in a
 * container; here RetryingGatewayClient is a mock that behaves as its tries and Fault Tolerance
 * would.
 */
@ExtendWith(MockitoExtension.class)
class RestPaymentGatewayTest {

  private static final PaymentGateway.ChargeRequest REQUEST =
      new PaymentGateway.ChargeRequest("banhang_k", 1000, "VND", "order-1", "pm_card_ok");

  @Mock RetryingGatewayClient client;

  private final RestPaymentGateway gateway = new RestPaymentGateway();

  @BeforeEach
  void wire() {
    gateway.client = client;
  }

  /**
   * The call's tries: each {@code true} is a try sent that may have charged, {@code false} a 503.
   */
  private void triesThenThrow(RuntimeException end, boolean... triesMayHaveCharged) {
    when(client.charge(eq(REQUEST), any()))
        .thenAnswer(
            call -> {
              RetryingGatewayClient.SentRequests sent = call.getArgument(1);
              for (boolean mayHaveCharged : triesMayHaveCharged) {
                sent.sending();
                sent.failed(new GatewayCallFailedException("try", mayHaveCharged, null));
              }
              throw end;
            });
  }

  @Test
  void theFailedTriesAreToldAfterTheCall_evenWhenItFailed_andAListenerThatThrowsChangesNothing() {
    triesThenThrow(new CircuitBreakerOpenException("open"), false, true);
    java.util.List<PaymentGateway.FailedTry> told = new java.util.ArrayList<>();

    assertThatThrownBy(() -> gateway.charge(REQUEST, told::add))
        .isInstanceOf(GatewayOutcomeUnknownException.class);
    assertThat(told).hasSize(3);
    assertThat(told.get(0).what()).contains("certainly not charged");
    assertThat(told.get(1).what()).contains("may have reached");
    assertThat(told.get(2).what()).contains("circuit breaker is open");

    assertThatThrownBy(
            () ->
                gateway.charge(
                    REQUEST,
                    failed -> {
                      throw new IllegalStateException("listener broken");
                    }))
        .isInstanceOf(GatewayOutcomeUnknownException.class);
  }

  @Test
  void anOpenCircuitBeforeAnyTryIsNotSent() {
    triesThenThrow(new CircuitBreakerOpenException("open"));

    assertThatThrownBy(() -> gateway.charge(REQUEST))
        .isInstanceOf(GatewayUnavailableException.class)
        .hasCauseInstanceOf(CircuitBreakerOpenException.class);
  }

  @Test
  void aFullBulkheadIsNotSent() {
    triesThenThrow(new BulkheadException("full"));

    assertThatThrownBy(() -> gateway.charge(REQUEST))
        .isInstanceOf(GatewayUnavailableException.class);
  }

  @Test
  void aCircuitThatOpensAfterTriesThatChargedNothingIsStillNotCharged() {
    triesThenThrow(new CircuitBreakerOpenException("open"), false, false);

    assertThatThrownBy(() -> gateway.charge(REQUEST))
        .isInstanceOf(GatewayUnavailableException.class);
  }

  @Test
  void aCircuitThatOpensAfterATryThatMayHaveChargedIsAnUnknownOutcome() {
    triesThenThrow(new CircuitBreakerOpenException("open"), false, true);

    assertThatThrownBy(() -> gateway.charge(REQUEST))
        .isInstanceOf(GatewayOutcomeUnknownException.class);
  }

  @Test
  void aTimeoutAfterSendingIsAnUnknownOutcome() {
    when(client.charge(eq(REQUEST), any()))
        .thenAnswer(
            call -> {
              // Sent, then Fault Tolerance gave up on the try: the method saw no failure.
              ((RetryingGatewayClient.SentRequests) call.getArgument(1)).sending();
              throw new TimeoutException("timed out");
            });

    assertThatThrownBy(() -> gateway.charge(REQUEST))
        .isInstanceOf(GatewayOutcomeUnknownException.class);
  }

  @Test
  void anyOtherEndByFaultToleranceIsAnUnknownOutcome() {
    triesThenThrow(new FaultToleranceException("retries exhausted"), false);

    assertThatThrownBy(() -> gateway.charge(REQUEST))
        .isInstanceOf(GatewayOutcomeUnknownException.class);
  }

  @Test
  void tries503OnlyAreNotChargedAndOneThatMayHaveChargedIsUnknown() {
    triesThenThrow(new GatewayCallFailedException("503", false, null), false, false);
    assertThatThrownBy(() -> gateway.charge(REQUEST))
        .isInstanceOf(GatewayUnavailableException.class);

    triesThenThrow(new GatewayCallFailedException("503", false, null), true, false);
    assertThatThrownBy(() -> gateway.charge(REQUEST))
        .isInstanceOf(GatewayOutcomeUnknownException.class);
  }
}
