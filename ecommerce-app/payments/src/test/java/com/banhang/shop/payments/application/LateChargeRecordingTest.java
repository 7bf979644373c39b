package com.banhang.shop.payments.application;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import com.banhang.shop.orders.api.PayableOrder;
import com.banhang.shop.orders.api.PayableOrders;
import com.banhang.shop.payments.domain.model.LateCharge;
import com.banhang.shop.payments.domain.model.Payment;
import com.banhang.shop.payments.domain.model.PaymentRepository;
import com.banhang.shop.payments.domain.model.PaymentStatus;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

/** What the late-charge sweep does with a charge found under an abandoned attempt's key. */
@ExtendWith(MockitoExtension.class)
class LateChargeRecordingTest {

  private static final String GATEWAY_KEY = "banhang_late";

  @Mock PaymentRepository repository;
  @Mock PayableOrders orders;

  private final PaymentService service = new PaymentService();
  private Payment abandoned;

  @BeforeEach
  void wire() {
    service.payments = repository;
    service.orders = orders;
    abandoned = new Payment("alice", "order-1", 1000, "VND", "pm_card_ok", GATEWAY_KEY, "k-1", 1);
    abandoned.abandon();
    when(repository.lock(abandoned.id())).thenReturn(Optional.of(abandoned));
  }

  private static PaymentGateway.ChargeDetails charge(boolean succeeded, long amount, String order) {
    return new PaymentGateway.ChargeDetails(
        "ch_late", succeeded, amount, "VND", order, GATEWAY_KEY);
  }

  private void orderPaid(boolean paid) {
    when(orders.find("alice", "order-1"))
        .thenReturn(new PayableOrder("order-1", "alice", "VND", 1000, paid));
  }

  @Test
  void aMatchingChargeOnAnUnpaidOrderIsRecorded() {
    orderPaid(false);

    assertThat(service.recordLateCharge(abandoned.id(), charge(true, 1000, "order-1")))
        .contains(LateCharge.RECORDED);

    assertThat(abandoned.status()).isEqualTo(PaymentStatus.CAPTURED);
    assertThat(abandoned.gatewayChargeId()).isEqualTo("ch_late");
    verify(orders).markPaid("alice", "order-1");
    verify(repository).flush();
  }

  @Test
  void aMatchingChargeOnAnOrderPaidByAnotherAttemptIsADoubleChargeForAnOperator() {
    orderPaid(true);

    assertThat(service.recordLateCharge(abandoned.id(), charge(true, 1000, "order-1")))
        .contains(LateCharge.DOUBLE_CHARGE);

    assertThat(abandoned.status()).isEqualTo(PaymentStatus.ABANDONED);
    assertThat(abandoned.lateChargeId()).isEqualTo("ch_late");
    assertThat(abandoned.lateChargeDetail()).contains("charged twice");
    verify(orders, never()).markPaid("alice", "order-1");
  }

  @Test
  void aChargeOfAnotherAmountIsAMismatchForAnOperator() {
    assertThat(service.recordLateCharge(abandoned.id(), charge(true, 999, "order-1")))
        .contains(LateCharge.MISMATCH);

    assertThat(abandoned.status()).isEqualTo(PaymentStatus.ABANDONED);
    verify(orders, never()).markPaid("alice", "order-1");
  }

  @Test
  void aLateDeclineChangesNothingButIsNotAskedAgain() {
    assertThat(service.recordLateCharge(abandoned.id(), charge(false, 1000, "order-1")))
        .contains(LateCharge.DECLINED);

    assertThat(abandoned.status()).isEqualTo(PaymentStatus.ABANDONED);
    assertThat(abandoned.lateCharge()).isEqualTo(LateCharge.DECLINED);
  }

  @Test
  void aGatewayKeyAnotherAttemptCapturedIsAlreadyRecorded() {
    Payment retry =
        new Payment("alice", "order-1", 1000, "VND", "pm_card_ok", GATEWAY_KEY, "k-1", 2);
    retry.capture("ch_late");
    when(repository.findCapturedByGatewayKey(GATEWAY_KEY)).thenReturn(Optional.of(retry));

    assertThat(service.recordLateCharge(abandoned.id(), charge(true, 1000, "order-1"))).isEmpty();

    assertThat(abandoned.status()).isEqualTo(PaymentStatus.ABANDONED);
    verify(orders, never()).markPaid("alice", "order-1");
  }

  @Test
  void anAttemptDecidedByAnotherNodeIsLeftAlone() {
    orderPaid(false);
    service.recordLateCharge(abandoned.id(), charge(true, 1000, "order-1"));

    assertThat(service.recordLateCharge(abandoned.id(), charge(true, 1000, "order-1"))).isEmpty();

    verify(orders).markPaid("alice", "order-1");
  }
}
