package com.banhang.shop.payments.application;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.banhang.shop.payments.domain.model.Payment;
import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;
import jakarta.ws.rs.core.Response;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The answer a settled payment stores as its key's response, down to the bytes: the request, a
 * replay, reconciliation and an operator must all give the same ones, so these are pinned.
 */
class SettledPaymentAnswerTest {

  private static final Jsonb JSONB = JsonbBuilder.create();

  private AutoCloseable configuration;

  /** ProblemDetails reads the problem-type base from MicroProfile Config: none is set here. */
  @BeforeEach
  void noConfiguration() {
    configuration = Fixtures.noConfiguration();
  }

  @AfterEach
  void forgetTheConfiguration() throws Exception {
    configuration.close();
  }

  /** The body bytes as the idempotency library stores them: JSON-B's defaults, or the bytes. */
  private static String storedBody(Response response) {
    Object entity = response.getEntity();
    return entity instanceof byte[] bytes
        ? new String(bytes, StandardCharsets.UTF_8)
        : JSONB.toJson(entity);
  }

  private static Response answer(Payment payment) {
    return PayOrder.answer(payment);
  }

  @Test
  void aCapturedPaymentAnswers201WithItsViewAndARelativeLocation() {
    Payment payment = Fixtures.pendingPayment();
    payment.capture("ch_1");

    Response answer = answer(payment);

    assertThat(answer.getStatus()).isEqualTo(201);
    assertThat(answer.getLocation()).hasToString("v1/payments/" + payment.id());
    assertThat(answer.getMediaType()).hasToString("application/json");
    assertThat(storedBody(answer))
        .isEqualTo(
            "{\"amount\":1250000,\"currency\":\"VND\",\"gatewayChargeId\":\"ch_1\",\"id\":\""
                + payment.id()
                + "\",\"orderId\":\"order-1\",\"status\":\"CAPTURED\"}");
  }

  @Test
  void aDeclinedPaymentAnswersThe402ProblemNamingThePaymentAndTheOrder() {
    Payment payment = Fixtures.pendingPayment();
    payment.decline("ch_d");

    Response answer = answer(payment);

    assertThat(answer.getStatus()).isEqualTo(402);
    assertThat(answer.getMediaType()).hasToString("application/problem+json");
    assertThat(answer.getLocation()).isNull();
    // The type is the application's problem-type base (set by the WAR's configuration) + slug.
    assertThat(storedBody(answer).replaceFirst("\"type\":\"[^\"]*payment-declined\"", "TYPE"))
        .isEqualTo(
            "{TYPE,"
                + "\"title\":\"Payment declined\",\"status\":402,\"detail\":\"the card was declined;"
                + " pay with another payment method under a new Idempotency-Key\",\"paymentId\":\""
                + payment.id()
                + "\",\"orderId\":\"order-1\"}");
  }

  @Test
  void anUnsettledPaymentHasNoAnswer() {
    Payment pending = Fixtures.pendingPayment();
    Payment abandoned = Fixtures.pendingPayment();
    abandoned.abandon();

    assertThatThrownBy(() -> answer(pending)).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> answer(abandoned)).isInstanceOf(IllegalStateException.class);
  }
}
