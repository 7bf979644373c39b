package com.banhang.shop.payments.application;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.anyCollection;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import com.banhang.shop.payments.api.FlaggedLateChargeView;
import com.banhang.shop.payments.api.FlaggedLateCharges;
import com.banhang.shop.payments.domain.model.LateCharge;
import com.banhang.shop.payments.domain.model.Payment;
import com.banhang.shop.payments.domain.model.PaymentRepository;
import java.util.Collection;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.ArgumentCaptor;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

/** The operator's read of the late charges the sweep flagged (docs/payments.md, "Late charges"). */
@ExtendWith(MockitoExtension.class)
class DefaultFlaggedLateChargesTest {

  @Mock PaymentRepository service;

  private final DefaultFlaggedLateCharges flagged = new DefaultFlaggedLateCharges();

  @BeforeEach
  void wire() {
    flagged.payments = service;
  }

  private static Payment doubleCharged() {
    Payment payment =
        new Payment(
            Fixtures.TENANT,
            Fixtures.ORDER,
            Fixtures.AMOUNT,
            "VND",
            "pm_card_ok",
            Fixtures.GATEWAY_KEY,
            Fixtures.KEY,
            1);
    payment.abandon();
    payment.flagLateCharge(LateCharge.DOUBLE_CHARGE, "ch_late", "charged twice");
    return payment;
  }

  @SuppressWarnings("unchecked")
  private static ArgumentCaptor<Collection<LateCharge>> flags() {
    return ArgumentCaptor.forClass(Collection.class);
  }

  @Test
  void aPageListsDoubleChargesMismatchesAndDeclines_notRecordedOnes_asViews() {
    Payment payment = doubleCharged();
    when(service.flaggedLateCharges(anyCollection(), anyInt(), anyInt()))
        .thenReturn(List.of(payment));

    List<FlaggedLateChargeView> page = flagged.page(10, 25);

    ArgumentCaptor<Collection<LateCharge>> asked = flags();
    verify(service)
        .flaggedLateCharges(
            asked.capture(),
            org.mockito.ArgumentMatchers.eq(10),
            org.mockito.ArgumentMatchers.eq(25));
    assertThat(asked.getValue())
        .containsExactlyInAnyOrder(
            LateCharge.DOUBLE_CHARGE, LateCharge.MISMATCH, LateCharge.DECLINED);
    assertThat(page).hasSize(1);
    FlaggedLateChargeView view = page.get(0);
    assertThat(view.paymentId()).isEqualTo(payment.id());
    assertThat(view.tenantId()).isEqualTo(Fixtures.TENANT);
    assertThat(view.orderId()).isEqualTo(Fixtures.ORDER);
    assertThat(view.amount()).isEqualTo(Fixtures.AMOUNT);
    assertThat(view.currency()).isEqualTo("VND");
    assertThat(view.flag()).isEqualTo("DOUBLE_CHARGE");
    assertThat(view.doubleCharge()).isTrue();
    assertThat(view.gatewayChargeId()).isEqualTo("ch_late");
    assertThat(view.detail()).isEqualTo("charged twice");
    assertThat(view.foundAt()).isEqualTo(payment.lateCheckedAt().toInstant());
  }

  @Test
  void theOperatorCountLeavesDeclinedChargesOut_theyTookNoMoney() {
    when(service.countFlaggedLateCharges(anyCollection())).thenReturn(3L);

    assertThat(flagged.countNeedingOperator()).isEqualTo(3L);

    ArgumentCaptor<Collection<LateCharge>> asked = flags();
    verify(service).countFlaggedLateCharges(asked.capture());
    assertThat(asked.getValue())
        .containsExactlyInAnyOrder(LateCharge.DOUBLE_CHARGE, LateCharge.MISMATCH);
  }

  @Test
  void thePublishedFlagsAreTheNamesOfTheDomainsLateCharges() {
    // The api's constants are the flags a view carries: the domain's names, written out so that
    // the published api does not depend on the domain model.
    assertThat(FlaggedLateCharges.DOUBLE_CHARGE).isEqualTo(LateCharge.DOUBLE_CHARGE.name());
    assertThat(FlaggedLateCharges.MISMATCH).isEqualTo(LateCharge.MISMATCH.name());
    assertThat(FlaggedLateCharges.DECLINED).isEqualTo(LateCharge.DECLINED.name());
  }
}
