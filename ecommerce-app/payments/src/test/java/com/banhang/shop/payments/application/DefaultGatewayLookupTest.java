package com.banhang.shop.payments.application;

import static com.banhang.shop.payments.application.Fixtures.AMOUNT;
import static com.banhang.shop.payments.application.Fixtures.GATEWAY_KEY;
import static com.banhang.shop.payments.application.Fixtures.ORDER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import com.banhang.shop.payments.api.GatewayLookup.GatewayAnswer;
import com.banhang.shop.payments.api.GatewayLookup.GatewayAnswer.Finding;
import com.banhang.shop.payments.domain.model.Payment;
import com.banhang.shop.payments.domain.model.PaymentRepository;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

/** "Ask the gateway now": what the gateway's answer amounts to, never an exception. */
@ExtendWith(MockitoExtension.class)
class DefaultGatewayLookupTest {

  @Mock PaymentRepository payments;
  @Mock PaymentGateway gateway;

  private final DefaultGatewayLookup lookup = new DefaultGatewayLookup();
  private final Payment payment = Fixtures.pendingPayment();

  @BeforeEach
  void wire() {
    lookup.payments = payments;
    lookup.gateway = gateway;
  }

  private void gatewayHas(boolean succeeded, long amount, String currency, String order) {
    when(payments.find(payment.id())).thenReturn(Optional.of(payment));
    when(gateway.findByKey(GATEWAY_KEY))
        .thenReturn(
            Optional.of(
                new PaymentGateway.ChargeDetails(
                    "ch_1", succeeded, amount, currency, order, GATEWAY_KEY)));
  }

  @Test
  void aSucceededChargeOfThisPayment_isCharged() {
    gatewayHas(true, AMOUNT, "VND", ORDER);

    GatewayAnswer answer = lookup.ask(payment.id());

    assertThat(answer.finding()).isEqualTo(Finding.CHARGED);
    assertThat(answer.chargeId()).isEqualTo("ch_1");
    assertThat(answer.amount()).isEqualTo(AMOUNT);
    assertThat(answer.currency()).isEqualTo("VND");
    assertThat(answer.orderReference()).isEqualTo(ORDER);
    assertThat(answer.detail()).contains("ch_1").contains(GATEWAY_KEY);
    assertThat(answer.askedAt()).isNotNull();
  }

  @Test
  void aDeclinedChargeOfThisPayment_isDeclined() {
    gatewayHas(false, AMOUNT, "VND", ORDER);

    assertThat(lookup.ask(payment.id()).finding()).isEqualTo(Finding.DECLINED);
  }

  @Test
  void aChargeOfAnotherAmountCurrencyOrOrder_isAMismatch_sayingHow() {
    gatewayHas(true, AMOUNT, "USD", "order-2");

    GatewayAnswer answer = lookup.ask(payment.id());

    assertThat(answer.finding()).isEqualTo(Finding.MISMATCH);
    assertThat(answer.detail()).contains("USD").contains("order-2").contains("not this payment's");
  }

  @Test
  void noChargeUnderTheKey_isNotFound() {
    when(payments.find(payment.id())).thenReturn(Optional.of(payment));
    when(gateway.findByKey(GATEWAY_KEY)).thenReturn(Optional.empty());

    assertThat(lookup.ask(payment.id()).finding()).isEqualTo(Finding.NOT_FOUND);
  }

  @Test
  void anUnavailableGateway_orAnyFailureOfTheCall_isUnavailable_neverAnException() {
    when(payments.find(payment.id())).thenReturn(Optional.of(payment));
    when(gateway.findByKey(GATEWAY_KEY))
        .thenThrow(new GatewayUnavailableException("circuit open", null))
        .thenThrow(new IllegalStateException("unexpected"));

    GatewayAnswer unavailable = lookup.ask(payment.id());
    GatewayAnswer failed = lookup.ask(payment.id());

    assertThat(unavailable.finding()).isEqualTo(Finding.UNAVAILABLE);
    assertThat(unavailable.detail()).contains("circuit open");
    assertThat(failed.finding()).isEqualTo(Finding.UNAVAILABLE);
  }

  @Test
  void anUnknownPayment_isNoSuchPayment_andTheGatewayIsNotAsked() {
    when(payments.find("p-unknown")).thenReturn(Optional.empty());

    assertThat(lookup.ask("p-unknown").finding()).isEqualTo(Finding.NO_SUCH_PAYMENT);
    assertThat(lookup.ask(null).finding()).isEqualTo(Finding.NO_SUCH_PAYMENT);
    verifyNoInteractions(gateway);
  }
}
