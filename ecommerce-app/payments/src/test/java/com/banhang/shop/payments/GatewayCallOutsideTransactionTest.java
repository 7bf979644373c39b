package com.banhang.shop.payments;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import com.banhang.idempotency.ClaimedKey;
import com.banhang.idempotency.IdempotencyKeys;
import com.banhang.idempotency.IdempotentRequest;
import com.banhang.shop.payments.application.OneTransaction;
import com.banhang.shop.payments.application.PayOrder;
import com.banhang.shop.payments.application.PaymentService;
import com.banhang.shop.payments.domain.model.Payment;
import com.banhang.shop.payments.infrastructure.gateway.GatewayChargesClient;
import com.banhang.shop.payments.infrastructure.gateway.RestPaymentGateway;
import com.banhang.shop.payments.infrastructure.gateway.RetryingGatewayClient;
import com.banhang.shop.payments.rest.OrderPaymentsResource;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * payments.charge sends its charge to the processor with no JTA transaction open (docs/payments.md,
 * "payments.charge in three steps"): a slow processor must never hold a pooled connection, locks or
 * a transaction's timeout.
 *
 * <p>Outside a server no interceptor opens a transaction, so a fake transaction manager would only
 * report what the test itself began, and {@code @Transactional} added to a method of the path would
 * go unnoticed. Instead the stand-in for the processor's HTTP client reads, at the moment the
 * request would leave, which {@code @Transactional} methods are on its thread's stack, and so which
 * transaction the container's interceptors would have open there. The path is the real one from the
 * JAX-RS method to the HTTP client: {@link OrderPaymentsResource}, {@link PayOrder}, {@link
 * OneTransaction}, {@link RestPaymentGateway} and {@link RetryingGatewayClient}; only the database
 * (the payment service, the key) and the HTTP client are stand-ins. A transaction added on any of
 * those methods, or the charge moved into {@link OneTransaction#run}, fails it. The shop on
 * PostgreSQL is checked the same way from the database's side by it-postgresql's
 * GatewayCallHoldsNoTransactionIT.
 */
class GatewayCallOutsideTransactionTest {

  private static final String TENANT = "alice";
  private static final ClaimedKey CLAIM =
      new ClaimedKey(TENANT, PayOrder.OPERATION, "2f1b3d4a-9d8f-4a5d-a9de-1c8f7ce6f1a2", 1);
  private static final long AMOUNT = 1_250_000;

  private final PaymentService payments = mock(PaymentService.class);
  private final IdempotentRequest currentRequest = mock(IdempotentRequest.class);
  private final SecurityContext security = mock(SecurityContext.class);
  private final Payment payment =
      new Payment(TENANT, "order-1", AMOUNT, "VND", "pm_card_ok", "banhang_0123", CLAIM.key(), 1);

  /** What the stand-in saw at each request it was asked to send: the transaction open, if any. */
  private final List<Optional<String>> atTheProcessor = new ArrayList<>();

  /** The transaction open when the key was completed with the payment's answer. */
  private final List<Optional<String>> atTheCompletion = new ArrayList<>();

  private final OrderPaymentsResource resource = new OrderPaymentsResource();

  @BeforeEach
  void wire() {
    GatewayChargesClient processor =
        new GatewayChargesClient() {
          @Override
          public Response create(String gatewayKey, GatewayChargeBody body) {
            atTheProcessor.add(transactionOpenHere());
            return charged(gatewayKey, body);
          }

          @Override
          public Response findByKey(String gatewayKey) {
            throw new AssertionError("a charge that answered is never looked up");
          }

          @Override
          public Response findById(String chargeId) {
            throw new AssertionError("a charge that answered is never looked up");
          }
        };
    RetryingGatewayClient client =
        inject(new RetryingGatewayClient(), processor, mock(Event.class));
    RestPaymentGateway gateway = inject(new RestPaymentGateway(), client);
    PayOrder payOrder =
        inject(
            new PayOrder(),
            payments,
            gateway,
            new OneTransaction(),
            currentRequest,
            mock(IdempotencyKeys.class),
            mock(com.banhang.shop.payments.application.Timeline.class),
            io.opentelemetry.api.OpenTelemetry.noop().getTracer("test"));
    inject(resource, payOrder, security);

    when(security.getUserPrincipal()).thenReturn(() -> TENANT);
    when(currentRequest.claim()).thenReturn(Optional.of(CLAIM));
    when(payments.capturedEarlier(any(), any())).thenReturn(Optional.empty());
    when(payments.startPayment(any(), any())).thenReturn(payment);
    when(payments.recordCharge(anyString(), any(), anyString()))
        .thenAnswer(
            call -> {
              payment.capture("ch_1");
              return payment;
            });
    when(currentRequest.complete(any()))
        .thenAnswer(
            call -> {
              atTheCompletion.add(transactionOpenHere());
              return call.getArgument(0);
            });
  }

  @Test
  void theChargeLeavesWithNoTransactionOpen_andTheAnswerIsRecordedInOne() {
    Response answer =
        resource.pay(
            "order-1", new OrderPaymentsResource.PayOrderRequest(AMOUNT, "VND", "pm_card_ok"));

    assertThat(answer.getStatus()).isEqualTo(201);
    assertThat(atTheProcessor).as("requests sent to the processor").hasSize(1);
    assertThat(atTheProcessor.get(0))
        .as(
            "the JTA transaction the container would have open while the charge is sent to the"
                + " processor (none is allowed: docs/payments.md, \"payments.charge in three"
                + " steps\")")
        .isEmpty();
    // The same reading sees the transaction the third step does open: the check above can fail.
    assertThat(atTheCompletion).hasSize(1);
    assertThat(atTheCompletion.get(0))
        .as("the transaction that records the answer and completes the key")
        .hasValueSatisfying(
            opener -> assertThat(opener).startsWith(OneTransaction.class.getName() + ".run"));
  }

  /**
   * The transaction the interceptors of {@link Transactional} would have open on this thread now,
   * named by the method that holds it; empty when none would be. The innermost method on the stack
   * that declares a transaction type (on itself or its class) decides: REQUIRED, REQUIRES_NEW and
   * MANDATORY mean one is open, NOT_SUPPORTED and NEVER that none is, SUPPORTS leaves it to its
   * callers. Private, static and synthetic methods (lambdas) are never intercepted, so they are
   * skipped. A call a bean makes to itself is not intercepted either but counts here: that errs
   * towards seeing a transaction, never towards missing one.
   */
  private static Optional<String> transactionOpenHere() {
    return StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE)
        .walk(
            frames ->
                frames
                    .map(GatewayCallOutsideTransactionTest::demarcation)
                    .flatMap(Optional::stream)
                    .filter(d -> d.type() != TxType.SUPPORTS)
                    .findFirst())
        .filter(d -> d.type() != TxType.NOT_SUPPORTED && d.type() != TxType.NEVER)
        .map(d -> d.method() + " (@Transactional " + d.type() + ")");
  }

  /** A method that declares a transaction type, on itself or on its class. */
  private record Demarcation(String method, TxType type) {}

  /** The method of a stack frame and the transaction type it declares, if it declares one. */
  private static Optional<Demarcation> demarcation(StackWalker.StackFrame frame) {
    Class<?> type = frame.getDeclaringClass();
    Method method;
    try {
      method =
          type.getDeclaredMethod(frame.getMethodName(), frame.getMethodType().parameterArray());
    } catch (NoSuchMethodException constructorOrInitialiser) {
      return Optional.empty();
    }
    int modifiers = method.getModifiers();
    if (Modifier.isPrivate(modifiers) || Modifier.isStatic(modifiers) || method.isSynthetic()) {
      return Optional.empty();
    }
    Transactional declared =
        Optional.ofNullable(method.getAnnotation(Transactional.class))
            .orElse(type.getAnnotation(Transactional.class));
    return Optional.ofNullable(declared)
        .map(t -> new Demarcation(type.getName() + "." + method.getName(), t.value()));
  }

  /**
   * Sets each {@code @Inject} or {@code @Context} field of {@code bean} to the dependency of its
   * type, as the container would; fails on a field left without one, so that a new collaborator on
   * the path is not silently null.
   */
  private static <T> T inject(T bean, Object... dependencies) {
    for (Field field : bean.getClass().getDeclaredFields()) {
      if (!field.isAnnotationPresent(Inject.class) && !field.isAnnotationPresent(Context.class)) {
        continue;
      }
      Object dependency =
          List.of(dependencies).stream()
              .filter(field.getType()::isInstance)
              .findFirst()
              .orElseThrow(
                  () -> new AssertionError("nothing to inject into " + field + " in this test"));
      field.setAccessible(true);
      try {
        field.set(bean, dependency);
      } catch (IllegalAccessException e) {
        throw new AssertionError("cannot inject " + field, e);
      }
    }
    return bean;
  }

  /** The processor's 201 for a charge of the request's body under its gateway key. */
  private static Response charged(
      String gatewayKey, GatewayChargesClient.GatewayChargeBody request) {
    JsonObject charge =
        Json.createObjectBuilder()
            .add("id", "ch_1")
            .add("status", "succeeded")
            .add("amount", request.amount())
            .add("currency", request.currency())
            .add("orderReference", request.orderReference())
            .add("paymentMethod", request.paymentMethod())
            .add("idempotencyKey", gatewayKey)
            .add("createdAt", "2026-12-01T08:00:00Z")
            .build();
    Response response = mock(Response.class);
    when(response.getStatus()).thenReturn(201);
    when(response.readEntity(JsonObject.class)).thenReturn(charge);
    return response;
  }
}
