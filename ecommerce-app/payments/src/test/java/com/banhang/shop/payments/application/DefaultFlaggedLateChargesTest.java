package com.banhang.shop.payments.application;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyCollection;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anySet;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import com.banhang.shop.payments.api.FlaggedLateChargeView;
import com.banhang.shop.payments.api.FlaggedLateCharges;
import com.banhang.shop.payments.api.FlaggedLateCharges.Handling;
import com.banhang.shop.payments.api.FlaggedLateCharges.HandlingAnswer;
import com.banhang.shop.payments.api.TimelineEntry;
import com.banhang.shop.payments.domain.model.LateCharge;
import com.banhang.shop.payments.domain.model.LateChargeHandling;
import com.banhang.shop.payments.domain.model.Payment;
import com.banhang.shop.payments.domain.model.PaymentRepository;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.ArgumentCaptor;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

/**
 * The operator's read of the late charges the sweep flagged, and their mark once handled
 * (docs/payments.md, "Late charges").
 */
@ExtendWith(MockitoExtension.class)
class DefaultFlaggedLateChargesTest {

  private static final Instant HANDLED = Instant.parse("2026-12-06T03:10:00.123Z");
  private static final String REASON =
      "refunded ch_late in the processor's dashboard [ticket INC-42]";

  @Mock PaymentRepository service;
  @Mock LateChargeMarks marks;

  private final InMemoryTimeline store = new InMemoryTimeline();
  private final List<HandlingAnswer> audited = new ArrayList<>();
  private final DefaultFlaggedLateCharges flagged = new DefaultFlaggedLateCharges();

  @BeforeEach
  void wire() {
    flagged.payments = service;
    flagged.marks = marks;
    flagged.timeline = InMemoryTimeline.timeline(store);
    flagged.transaction = new OneTransaction();
  }

  private static Payment flaggedPayment(LateCharge flag) {
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
    payment.flagLateCharge(flag, "ch_late", "charged twice");
    return payment;
  }

  private static Payment doubleCharged() {
    return flaggedPayment(LateCharge.DOUBLE_CHARGE);
  }

  /** The payment as the database returns it once the mark's UPDATE ran (JPA never writes it). */
  private static Payment handled(Payment payment, String by, LateChargeHandling how) {
    set(payment, "handledAt", OffsetDateTime.ofInstant(HANDLED, ZoneOffset.UTC));
    set(payment, "handledBy", by);
    set(payment, "handling", how);
    set(payment, "handledReason", "the customer agreed on the phone [ticket INC-7]");
    return payment;
  }

  private static void set(Payment payment, String field, Object value) {
    try {
      java.lang.reflect.Field f = Payment.class.getDeclaredField(field);
      f.setAccessible(true);
      f.set(payment, value);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }

  @SuppressWarnings("unchecked")
  private static ArgumentCaptor<Collection<LateCharge>> flags() {
    return ArgumentCaptor.forClass(Collection.class);
  }

  @SuppressWarnings("unchecked")
  private static ArgumentCaptor<Set<LateCharge>> flagSet() {
    return ArgumentCaptor.forClass(Set.class);
  }

  @Test
  void aPageListsDoubleChargesMismatchesAndDeclines_notRecordedOnes_asViews() {
    Payment payment = doubleCharged();
    when(service.flaggedLateCharges(anyCollection(), eq(false), anyInt(), anyInt()))
        .thenReturn(List.of(payment));

    List<FlaggedLateChargeView> page = flagged.page(10, 25);

    ArgumentCaptor<Collection<LateCharge>> asked = flags();
    verify(service).flaggedLateCharges(asked.capture(), eq(false), eq(10), eq(25));
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
    assertThat(view.handled()).isFalse();
    assertThat(view.handledBy()).isNull();
    assertThat(view.handling()).isNull();
  }

  @Test
  void handledOnesAreHiddenByDefault_andShownOnAsking_withWhoWhenHowAndWhy() {
    Payment payment = handled(doubleCharged(), "bob", LateChargeHandling.ACCEPTED);
    when(service.flaggedLateCharges(anyCollection(), eq(true), anyInt(), anyInt()))
        .thenReturn(List.of(payment));
    when(service.countFlaggedLateCharges(anyCollection(), eq(true))).thenReturn(4L);
    when(service.countFlaggedLateCharges(anyCollection(), eq(false))).thenReturn(3L);

    FlaggedLateChargeView view = flagged.page(0, 10, true).get(0);

    assertThat(view.handled()).isTrue();
    assertThat(view.handledAt()).isEqualTo(HANDLED);
    assertThat(view.handledBy()).isEqualTo("bob");
    assertThat(view.handling()).isEqualTo("ACCEPTED");
    assertThat(view.handledReason()).isEqualTo("the customer agreed on the phone [ticket INC-7]");
    assertThat(flagged.count(true)).isEqualTo(4L);
    assertThat(flagged.count()).isEqualTo(3L);
  }

  @Test
  void theOperatorCountLeavesDeclinedAndHandledChargesOut() {
    when(service.countFlaggedLateCharges(anyCollection(), eq(false))).thenReturn(3L);

    assertThat(flagged.countNeedingOperator()).isEqualTo(3L);

    ArgumentCaptor<Collection<LateCharge>> asked = flags();
    verify(service).countFlaggedLateCharges(asked.capture(), eq(false));
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
    assertThat(Arrays.stream(Handling.values()).map(Enum::name))
        .containsExactlyElementsOf(
            Arrays.stream(LateChargeHandling.values()).map(Enum::name).toList());
  }

  @Test
  void markingADoubleChargeRefunded_marksIt_writesTheTimeline_andTheAudit_movesNoMoney() {
    Payment payment = doubleCharged();
    when(marks.mark(
            eq(payment.id()),
            anySet(),
            eq(LateChargeHandling.REFUNDED),
            eq("alice-op"),
            eq(REASON),
            any()))
        .thenReturn(true);
    when(service.find(payment.id())).thenReturn(Optional.of(payment));

    HandlingAnswer answer =
        flagged.markHandled(payment.id(), Handling.REFUNDED, " alice-op ", REASON, audited::add);

    assertThat(answer.done()).isTrue();
    assertThat(answer.message())
        .contains("ch_late", payment.id(), "REFUNDED", "alice-op", "moved no money");
    assertThat(answer.charge().handled()).isTrue();
    assertThat(answer.charge().handledBy()).isEqualTo("alice-op");
    assertThat(answer.charge().handling()).isEqualTo("REFUNDED");
    assertThat(answer.charge().handledReason()).isEqualTo(REASON);
    ArgumentCaptor<Set<LateCharge>> markable = flagSet();
    verify(marks)
        .mark(eq(payment.id()), markable.capture(), any(), anyString(), anyString(), any());
    // A declined charge took no money: it cannot have been refunded.
    assertThat(markable.getValue())
        .containsExactlyInAnyOrder(LateCharge.DOUBLE_CHARGE, LateCharge.MISMATCH);
    assertThat(store.kinds()).containsExactly(TimelineEntry.Kind.LATE_CHARGE_HANDLED);
    PaymentTimeline.Entry entry = store.entries.get(0);
    assertThat(entry.paymentId()).isEqualTo(payment.id());
    assertThat(entry.idempotencyKey()).isEqualTo(Fixtures.KEY);
    assertThat(entry.actor()).isEqualTo(Timeline.OPERATOR);
    assertThat(entry.detail()).contains("REFUNDED by alice-op", REASON, "moved no money");
    assertThat(audited).containsExactly(answer);
    // The payment itself is untouched: still abandoned, the order not held, the flag as found.
    assertThat(payment.status()).isEqualTo(Payment.Status.ABANDONED);
    assertThat(payment.lateCharge()).isEqualTo(LateCharge.DOUBLE_CHARGE);
  }

  @Test
  void aDeclinedCharge_mayBeAccepted_butNotRefunded() {
    Payment declined = flaggedPayment(LateCharge.DECLINED);
    when(marks.mark(eq(declined.id()), anySet(), any(), anyString(), anyString(), any()))
        .thenAnswer(
            invocation -> invocation.<Set<LateCharge>>getArgument(1).contains(LateCharge.DECLINED));
    when(service.find(declined.id())).thenReturn(Optional.of(declined));

    HandlingAnswer refunded =
        flagged.markHandled(declined.id(), Handling.REFUNDED, "alice-op", REASON, audited::add);
    HandlingAnswer accepted =
        flagged.markHandled(declined.id(), Handling.ACCEPTED, "alice-op", REASON, audited::add);

    assertThat(refunded.done()).isFalse();
    assertThat(refunded.message()).contains("declined", "nothing to refund", "accepted");
    assertThat(accepted.done()).isTrue();
    assertThat(audited).containsExactly(accepted);
    assertThat(store.kinds()).containsExactly(TimelineEntry.Kind.LATE_CHARGE_HANDLED);
  }

  @Test
  void aSecondMark_isRefusedWithWhoHandledItAndWhen_andChangesNothing() {
    Payment payment = handled(doubleCharged(), "bob", LateChargeHandling.ACCEPTED);
    when(marks.mark(eq(payment.id()), anySet(), any(), anyString(), anyString(), any()))
        .thenReturn(false);
    when(service.find(payment.id())).thenReturn(Optional.of(payment));

    HandlingAnswer answer =
        flagged.markHandled(payment.id(), Handling.REFUNDED, "alice-op", REASON, audited::add);

    assertThat(answer.done()).isFalse();
    assertThat(answer.result()).isEqualTo(HandlingAnswer.Result.REFUSED);
    assertThat(answer.message())
        .startsWith("already handled by bob at " + HANDLED)
        .contains("ACCEPTED", "the customer agreed", "nothing changed");
    assertThat(answer.charge().handledBy()).isEqualTo("bob");
    assertThat(store.entries).isEmpty();
    assertThat(audited).isEmpty();
  }

  @Test
  void aPaymentWithNoFlaggedLateCharge_orNone_isRefused() {
    Payment pending = Fixtures.pendingPayment();
    Payment recorded = Fixtures.pendingPayment();
    recorded.abandon();
    recorded.captureLate("ch_recorded");
    when(marks.mark(anyString(), anySet(), any(), anyString(), anyString(), any()))
        .thenReturn(false);
    when(service.find(pending.id())).thenReturn(Optional.of(pending));
    when(service.find(recorded.id())).thenReturn(Optional.of(recorded));
    when(service.find("no-such")).thenReturn(Optional.empty());

    HandlingAnswer unflagged =
        flagged.markHandled(pending.id(), Handling.ACCEPTED, "alice-op", REASON, audited::add);
    HandlingAnswer ofRecorded =
        flagged.markHandled(recorded.id(), Handling.ACCEPTED, "alice-op", REASON, audited::add);
    HandlingAnswer missing =
        flagged.markHandled("no-such", Handling.ACCEPTED, "alice-op", REASON, audited::add);

    assertThat(unflagged.done()).isFalse();
    assertThat(unflagged.message()).contains("no late charge flagged for an operator");
    assertThat(unflagged.charge()).isNull();
    assertThat(ofRecorded.message()).contains("RECORDED", "the shop recorded it");
    assertThat(missing.done()).isFalse();
    assertThat(missing.message()).isEqualTo("no payment no-such");
    assertThat(store.entries).isEmpty();
    assertThat(audited).isEmpty();
  }

  @Test
  void aMarkWithoutReasonOperatorOrHandling_isRefusedBeforeTheDatabase() {
    assertThat(flagged.markHandled("p-1", Handling.REFUNDED, "alice-op", "  ", audited::add))
        .extracting(HandlingAnswer::result, HandlingAnswer::message)
        .containsExactly(
            HandlingAnswer.Result.REFUSED, "a reason is required to mark a late charge handled");
    assertThat(flagged.markHandled("p-1", Handling.REFUNDED, null, REASON, audited::add).done())
        .isFalse();
    assertThat(flagged.markHandled("p-1", null, "alice-op", REASON, audited::add).message())
        .contains("REFUNDED or ACCEPTED");
    assertThat(flagged.markHandled(" ", Handling.ACCEPTED, "alice-op", REASON, audited::add).done())
        .isFalse();
    // Longer than its column: refused rather than cut, so the mark keeps what the operator wrote.
    assertThat(
            flagged
                .markHandled("p-1", Handling.ACCEPTED, "alice-op", "x".repeat(1001), audited::add)
                .message())
        .contains("longer than 1000");

    verifyNoInteractions(marks, service);
    assertThat(audited).isEmpty();
  }

  @Test
  void anAuditThatCannotBeWritten_failsTheMark_soItsTransactionRollsBack() {
    Payment payment = doubleCharged();
    when(marks.mark(eq(payment.id()), anySet(), any(), anyString(), anyString(), any()))
        .thenReturn(true);
    when(service.find(payment.id())).thenReturn(Optional.of(payment));

    assertThatThrownBy(
            () ->
                flagged.markHandled(
                    payment.id(),
                    Handling.ACCEPTED,
                    "alice-op",
                    REASON,
                    answer -> {
                      throw new IllegalStateException("audit down");
                    }))
        .hasMessage("audit down");
  }

  @Test
  void theMarkIsMadeInsideTheTransaction_withTheTimelineAndTheAudit() {
    Payment payment = doubleCharged();
    List<String> steps = new ArrayList<>();
    flagged.transaction =
        new OneTransaction() {
          @Override
          public <T> T run(java.util.function.Supplier<T> work) {
            steps.add("begin");
            T result = work.get();
            steps.add("commit");
            return result;
          }
        };
    when(marks.mark(eq(payment.id()), anySet(), any(), anyString(), anyString(), any()))
        .thenAnswer(
            invocation -> {
              steps.add("mark");
              return true;
            });
    when(service.find(payment.id())).thenReturn(Optional.of(payment));

    flagged.markHandled(
        payment.id(), Handling.ACCEPTED, "alice-op", REASON, answer -> steps.add("audit"));

    assertThat(steps).containsExactly("begin", "mark", "audit", "commit");
    assertThat(store.kinds()).containsExactly(TimelineEntry.Kind.LATE_CHARGE_HANDLED);
    verify(service, never()).flush();
  }
}
