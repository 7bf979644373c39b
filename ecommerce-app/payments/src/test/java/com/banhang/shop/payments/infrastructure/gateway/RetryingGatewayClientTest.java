package com.banhang.shop.payments.infrastructure.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import com.banhang.shop.payments.api.GatewayCallFailed;
import com.banhang.shop.payments.application.GatewayOutcomeUnknownException;
import com.banhang.shop.payments.application.GatewayRefusedException;
import com.banhang.shop.payments.application.GatewayUnavailableException;
import com.banhang.shop.payments.application.PaymentGateway;
import jakarta.enterprise.event.Event;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.net.ConnectException;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertificateException;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLPeerUnverifiedException;
import org.eclipse.microprofile.faulttolerance.exceptions.CircuitBreakerOpenException;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

/**
 * One try of each gateway call, without Fault Tolerance (no container): how an answer is read, and
 * which failures fire {@link GatewayCallFailed}.
 */
@ExtendWith(MockitoExtension.class)
class RetryingGatewayClientTest {

  private static final PaymentGateway.ChargeRequest REQUEST =
      new PaymentGateway.ChargeRequest("banhang_k", 1000, "VND", "order-1", "pm_card_ok");

  @Mock GatewayChargesClient client;
  @Mock Event<GatewayCallFailed> failedCalls;

  private final RetryingGatewayClient retryingClient = new RetryingGatewayClient();
  private final RetryingGatewayClient.SentRequests sent = new RetryingGatewayClient.SentRequests();

  @BeforeEach
  void wire() {
    retryingClient.client = client;
    retryingClient.failedCalls = failedCalls;
  }

  private static Response answer(int status, JsonObject body) {
    Response response = mock(Response.class);
    when(response.getStatus()).thenReturn(status);
    if (body != null) {
      when(response.readEntity(JsonObject.class)).thenReturn(body);
    }
    return response;
  }

  private static JsonObject charge(String status) {
    return Json.createObjectBuilder()
        .add("id", "ch_1")
        .add("status", status)
        .add("amount", 1000)
        .add("currency", "VND")
        .add("orderReference", "order-1")
        .add("paymentMethod", "pm_card_ok")
        .add("idempotencyKey", "banhang_k")
        .add("createdAt", "2026-12-01T08:00:00Z")
        .build();
  }

  @Test
  void aChargeFoundByIdIsReadWithEveryDetailAndFiresNothing() {
    Response found = answer(200, charge("succeeded"));
    when(client.findById("ch_1")).thenReturn(found);

    assertThat(retryingClient.findCharge("ch_1"))
        .contains(
            new PaymentGateway.ChargeDetails("ch_1", true, 1000, "VND", "order-1", "banhang_k"));
    verify(found).close();
    verifyNoInteractions(failedCalls);
  }

  @Test
  void anUnknownChargeIdIsEmpty() {
    Response missing = answer(404, null);
    when(client.findById("ch_x")).thenReturn(missing);

    assertThat(retryingClient.findCharge("ch_x")).isEmpty();
    verifyNoInteractions(failedCalls);
  }

  @Test
  void aFailedLookupByIdFiresAFailureThatChargedNothing() {
    Response broken = answer(500, null);
    when(client.findById("ch_1")).thenReturn(broken);

    assertThatThrownBy(() -> retryingClient.findCharge("ch_1"))
        .isInstanceOf(GatewayCallFailedException.class);
    verify(failedCalls).fire(new GatewayCallFailed(GatewayCallFailed.FIND_CHARGE, false));
  }

  @Test
  void anUnreachableGatewayOnALookupByKeyFiresAFailure() {
    when(client.findByKey("banhang_k")).thenThrow(new ProcessingException("read timed out"));

    assertThatThrownBy(() -> retryingClient.findByKey("banhang_k"))
        .isInstanceOf(GatewayCallFailedException.class);
    verify(failedCalls).fire(new GatewayCallFailed(GatewayCallFailed.FIND_BY_KEY, false));
  }

  @Test
  void aChargeWhoseAnswerWasLostFiresAFailureThatMayHaveCharged() {
    Response lost = answer(504, null);
    when(client.create(anyString(), any())).thenReturn(lost);

    assertThatThrownBy(() -> retryingClient.charge(REQUEST, sent))
        .isInstanceOf(GatewayCallFailedException.class);
    verify(failedCalls).fire(new GatewayCallFailed(GatewayCallFailed.CHARGE, true));
    assertThat(sent.sent()).isEqualTo(1);
    assertThat(sent.mayHaveCharged()).isTrue();
  }

  @Test
  void theFailedTriesOfACall_sayHowEachFailed_forTheTimeline() {
    Response lost = answer(504, null);
    Response unavailable = answer(503, null);
    Response charged = answer(201, charge("succeeded"));
    when(client.create(anyString(), any()))
        .thenThrow(new ProcessingException(new ConnectException("Connection refused")))
        .thenReturn(lost)
        .thenReturn(unavailable)
        .thenReturn(charged);

    // Fault Tolerance would make these four tries of one call; here each is called as it would.
    for (int i = 0; i < 3; i++) {
      assertThatThrownBy(() -> retryingClient.charge(REQUEST, sent))
          .isInstanceOf(GatewayCallFailedException.class);
    }
    retryingClient.charge(REQUEST, sent);

    List<PaymentGateway.FailedTry> failed = sent.failedTries(null);
    assertThat(failed).hasSize(3);
    assertThat(failed.get(0).what()).startsWith("connection refused").contains("certainly not");
    assertThat(failed.get(1).what()).contains("504").contains("may have reached");
    assertThat(failed.get(2).what()).contains("unavailable before charging");
    assertThat(failed).allSatisfy(t -> assertThat(t.at()).isNotNull());
  }

  @Test
  void aTryEndedByFaultTolerance_isATimeout_andARefusedTryIsNotSent() {
    Response charged = answer(201, charge("succeeded"));
    when(client.create(anyString(), any())).thenReturn(charged);
    retryingClient.charge(REQUEST, sent);

    // The call then ended with Fault Tolerance's timeout: its last try never answered in time.
    assertThat(sent.failedTries(new TimeoutException()))
        .singleElement()
        .satisfies(t -> assertThat(t.what()).startsWith("timeout"));
    assertThat(
            new RetryingGatewayClient.SentRequests().failedTries(new CircuitBreakerOpenException()))
        .singleElement()
        .satisfies(t -> assertThat(t.what()).contains("not sent").contains("circuit"));
  }

  @Test
  void aRefusedConnectionOnAChargeFiresAFailureThatChargedNothing() {
    when(client.create(anyString(), any()))
        .thenThrow(new ProcessingException(new ConnectException("refused")));

    assertThatThrownBy(() -> retryingClient.charge(REQUEST, sent))
        .isInstanceOf(GatewayCallFailedException.class);
    verify(failedCalls).fire(new GatewayCallFailed(GatewayCallFailed.CHARGE, false));
    assertThat(sent.sent()).isEqualTo(1);
    assertThat(sent.mayHaveCharged()).isFalse();
  }

  /**
   * An untrusted processor certificate fails the TLS handshake before any request reaches the
   * processor: the call charged nothing, so the payment is "not sent" (503, key released), never an
   * unknown outcome. The Rest Client wraps the handshake failure at various depths.
   */
  @Test
  void aTlsHandshakeFailureAnywhereInTheCauseChainIsNotSentAndReleasesTheKey() {
    SSLHandshakeException untrusted =
        new SSLHandshakeException("PKIX path building failed: unable to find valid certification");
    untrusted.initCause(new CertPathBuilderException("unable to find valid certification path"));
    when(client.create(anyString(), any()))
        .thenThrow(
            new ProcessingException(untrusted),
            new ProcessingException(
                new IOException("wrapped", new CertificateException("expired"))),
            new ProcessingException(new SSLPeerUnverifiedException("no name matches")));
    RestPaymentGateway gateway = new RestPaymentGateway();
    gateway.client = retryingClient;

    for (int i = 0; i < 3; i++) {
      assertThatThrownBy(() -> gateway.charge(REQUEST))
          .isInstanceOf(GatewayUnavailableException.class)
          .isNotInstanceOf(GatewayOutcomeUnknownException.class);
    }
    verify(failedCalls, times(3)).fire(new GatewayCallFailed(GatewayCallFailed.CHARGE, false));
  }

  /** A TLS failure after the handshake (the connection broke mid-answer) may have charged. */
  @Test
  void aTlsFailureAfterTheHandshakeMayHaveCharged() {
    when(client.create(anyString(), any()))
        .thenThrow(new ProcessingException(new SSLException("connection reset mid-record")));

    assertThatThrownBy(() -> retryingClient.charge(REQUEST, sent))
        .isInstanceOf(GatewayCallFailedException.class);
    assertThat(sent.mayHaveCharged()).isTrue();
  }

  /** The processor authenticates the shop before it charges: a 401 or 403 charged nothing. */
  @Test
  void refusedCredentialsChargedNothing() {
    Response unauthorized = answer(401, null);
    Response forbidden = answer(403, null);
    when(client.create(anyString(), any())).thenReturn(unauthorized, forbidden);

    for (int i = 0; i < 2; i++) {
      assertThatThrownBy(() -> retryingClient.charge(REQUEST, sent))
          .isInstanceOf(GatewayCallFailedException.class);
    }
    assertThat(sent.sent()).isEqualTo(2);
    assertThat(sent.mayHaveCharged()).isFalse();
  }

  @Test
  void aRefusalOrADeclineIsAnAnswerNotAFailure() {
    Response refused = answer(422, null);
    Response declined = answer(402, charge("declined"));
    when(client.create(anyString(), any())).thenReturn(refused, declined);

    assertThatThrownBy(() -> retryingClient.charge(REQUEST, sent))
        .isInstanceOf(GatewayRefusedException.class);
    assertThat(retryingClient.charge(REQUEST, sent).succeeded()).isFalse();
    verifyNoInteractions(failedCalls);
  }

  @Test
  void anObserverThatThrowsDoesNotChangeWhatTheFailureMeans() {
    Response lost = answer(503, null);
    when(client.create(anyString(), any())).thenReturn(lost);
    doThrow(new IllegalStateException("metrics down")).when(failedCalls).fire(any());

    assertThatThrownBy(() -> retryingClient.charge(REQUEST, sent))
        .isInstanceOf(GatewayCallFailedException.class);
    assertThat(sent.mayHaveCharged()).isFalse();
  }

  private static JsonObject chargeOf(long amount, String currency, String orderReference) {
    return Json.createObjectBuilder()
        .add("id", "ch_forged")
        .add("status", "succeeded")
        .add("amount", amount)
        .add("currency", currency)
        .add("orderReference", orderReference)
        .add("idempotencyKey", "banhang_k")
        .build();
  }

  @Test
  void aChargeAnswerIsAcceptedOnlyIfItIsTheRequestsOwn() {
    Response created = answer(201, charge("succeeded"));
    when(client.create(anyString(), any())).thenReturn(created);

    assertThat(retryingClient.charge(REQUEST, sent).chargeId()).isEqualTo("ch_1");
    assertThat(sent.mayHaveCharged()).isTrue();
  }

  @Test
  void aReplayedChargeOfAnotherAmountCurrencyOrOrderIsNeverAccepted() {
    Response otherAmount = answer(201, chargeOf(1, "VND", "order-1"));
    Response otherCurrency = answer(201, chargeOf(1000, "USD", "order-1"));
    Response otherOrder = answer(201, chargeOf(1000, "VND", "order-2"));
    when(client.create(anyString(), any())).thenReturn(otherAmount, otherCurrency, otherOrder);

    assertThatThrownBy(() -> retryingClient.charge(REQUEST, sent))
        .isInstanceOf(GatewayChargeMismatchException.class)
        .hasMessageContaining("amount 1 instead of 1000");
    assertThatThrownBy(() -> retryingClient.charge(REQUEST, sent))
        .isInstanceOf(GatewayChargeMismatchException.class)
        .hasMessageContaining("currency USD");
    assertThatThrownBy(() -> retryingClient.charge(REQUEST, sent))
        .isInstanceOf(GatewayChargeMismatchException.class)
        .hasMessageContaining("order reference order-2");
  }

  @Test
  void aMismatchedChargeAnswerIsAnUnknownOutcomeForThePort() {
    RestPaymentGateway gateway = new RestPaymentGateway();
    gateway.client = mock(RetryingGatewayClient.class);
    when(gateway.client.charge(any(), any()))
        .thenThrow(new GatewayChargeMismatchException("not this request's"));

    assertThatThrownBy(() -> gateway.charge(REQUEST))
        .isInstanceOf(GatewayOutcomeUnknownException.class);
  }

  @Test
  void aLookupByKeyReturnsTheChargesDetailsForTheCallerToCheck() {
    Response found = answer(200, chargeOf(1, "VND", "order-1"));
    when(client.findByKey("banhang_k")).thenReturn(found);

    assertThat(retryingClient.findByKey("banhang_k"))
        .contains(
            new PaymentGateway.ChargeDetails("ch_forged", true, 1, "VND", "order-1", "banhang_k"));
  }

  @Test
  void theGatewayPortSaysUnavailableWhenALookupByIdFails() {
    RestPaymentGateway gateway = new RestPaymentGateway();
    gateway.client = mock(RetryingGatewayClient.class);
    when(gateway.client.findCharge("ch_1"))
        .thenThrow(new GatewayCallFailedException("lookup answered 500", true, null));
    when(gateway.client.findCharge("ch_2")).thenReturn(Optional.empty());

    assertThatThrownBy(() -> gateway.findCharge("ch_1"))
        .isInstanceOf(GatewayUnavailableException.class);
    assertThat(gateway.findCharge("ch_2")).isEmpty();
  }
}
