package com.banhang.shop.payments.application;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.RETURNS_SELF;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import com.banhang.idempotency.ClaimedKey;
import com.banhang.idempotency.IdempotencyKeys;
import com.banhang.idempotency.IdempotentRequest;
import com.banhang.shop.payments.api.rest.PaymentResponses;
import com.banhang.shop.payments.domain.model.Payment;
import jakarta.persistence.EntityManager;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.RuntimeDelegate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.InOrder;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

/**
 * The key is the last write of the transaction that records a charge: the JPA changes of the
 * payment and the order are flushed before the library's completion, so the key's row is not held
 * locked while they run (docs/sqlserver.md, "The key is written last").
 */
@ExtendWith(MockitoExtension.class)
class ChargeCompletionTest {

  @Mock PaymentService payments;
  @Mock IdempotentRequest currentRequest;
  @Mock IdempotencyKeys keys;
  @Mock EntityManager entityManager;

  private final ChargeCompletion completion = new ChargeCompletion();
  private Payment payment;

  /** No JAX-RS runtime in a unit test: responses are built by a mock. */
  @BeforeEach
  void responsesWithoutARuntime() {
    RuntimeDelegate delegate = mock(RuntimeDelegate.class);
    when(delegate.createResponseBuilder())
        .thenAnswer(invocation -> mock(Response.ResponseBuilder.class, RETURNS_SELF));
    RuntimeDelegate.setInstance(delegate);
  }

  @AfterEach
  void forgetTheRuntime() {
    RuntimeDelegate.setInstance(null);
  }

  @BeforeEach
  void wire() {
    completion.payments = payments;
    completion.responses = new PaymentResponses();
    completion.currentRequest = currentRequest;
    completion.keys = keys;
    completion.entityManager = entityManager;
    payment = Fixtures.pendingPayment();
    payment.capture("ch_1");
  }

  @Test
  void theRequestFlushesThePaymentAndTheOrderBeforeItCompletesItsKey() {
    GatewayCharge charge = new GatewayCharge("ch_1", true);
    when(payments.recordCharge(payment.id(), charge)).thenReturn(payment);
    Response stored = mock(Response.class);
    when(currentRequest.complete(any())).thenReturn(stored);

    Response answer = completion.completeRequest(payment.id(), charge);

    assertThat(answer).isSameAs(stored);
    InOrder order = inOrder(payments, entityManager, currentRequest);
    order.verify(payments).recordCharge(payment.id(), charge);
    order.verify(entityManager).flush();
    order.verify(currentRequest).complete(any());
  }

  @Test
  void reconciliationAndOperatorsFlushThePaymentAndTheOrderBeforeTheyCompleteTheKey() {
    ClaimedKey claim =
        new ClaimedKey(Fixtures.TENANT, DefaultReconciliation.OPERATION, Fixtures.KEY, 2);
    GatewayCharge charge = new GatewayCharge("ch_1", true);
    when(payments.recordCharge(payment.id(), charge)).thenReturn(payment);

    Payment settled = completion.completeClaim(claim, payment.id(), charge);

    assertThat(settled).isSameAs(payment);
    InOrder order = inOrder(payments, entityManager, keys);
    order.verify(payments).recordCharge(payment.id(), charge);
    order.verify(entityManager).flush();
    order.verify(keys).complete(eq(claim), any());
  }
}
