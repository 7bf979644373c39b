package com.banhang.shop.admin.application;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import com.banhang.shop.payments.api.FlaggedLateCharges;
import com.banhang.shop.payments.api.FlaggedLateCharges.Handling;
import com.banhang.shop.payments.api.FlaggedLateCharges.HandlingAnswer;
import com.banhang.shop.payments.api.PaymentRecord;
import com.banhang.shop.payments.api.PaymentRecords;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import org.mockito.stubbing.Answer;

/**
 * Marking a late charge handled (docs/operations.md, "Late charges"): what the operator must give,
 * and the audit, refusals included.
 */
class OperatorActionsLateChargesTest {

  private static final KeyRef KEY = new KeyRef("alice", "payments.charge", "k1");
  private static final String REASON =
      "refunded ch_late in the processor's dashboard [ticket INC-42]";
  private static final String AUDITED_REASON = "payment p-1, REFUNDED: " + REASON;

  private final OperatorActions actions = new OperatorActions();

  @BeforeEach
  void collaborators() {
    actions.audit = mock(AuditLog.class);
    actions.flaggedLateCharges = mock(FlaggedLateCharges.class);
    actions.paymentRecords = mock(PaymentRecords.class);
    when(actions.paymentRecords.find("p-1"))
        .thenReturn(
            Optional.of(
                new PaymentRecord(
                    "p-1",
                    "alice",
                    "o-1",
                    1250,
                    "USD",
                    "ABANDONED",
                    "gk",
                    null,
                    "k1",
                    1,
                    "DOUBLE_CHARGE",
                    Instant.EPOCH,
                    Instant.EPOCH)));
  }

  /** Payments' answer, with the audit entry written "in its transaction", as payments does. */
  private static Answer<HandlingAnswer> answering(HandlingAnswer answer) {
    return invocation -> {
      if (answer.done()) {
        invocation.<Consumer<HandlingAnswer>>getArgument(4).accept(answer);
      }
      return answer;
    };
  }

  private ActionResult audited(String reason) {
    ArgumentCaptor<ActionResult> result = ArgumentCaptor.forClass(ActionResult.class);
    verify(actions.audit)
        .append(
            eq("operator"),
            eq(OperatorActions.LATE_CHARGE_HANDLED),
            eq(KEY),
            eq(reason),
            result.capture());
    return result.getValue();
  }

  @Test
  void aMark_isMadeByPayments_andAuditedInItsTransaction_onceUnderTheNewAction() {
    HandlingAnswer done =
        new HandlingAnswer(HandlingAnswer.Result.DONE, "marked REFUNDED by operator", null);
    when(actions.flaggedLateCharges.markHandled(
            eq("p-1"), eq(Handling.REFUNDED), eq("operator"), eq(REASON), any()))
        .thenAnswer(answering(done));

    ActionResult result =
        actions.markLateChargeHandled("operator", "p-1", Handling.REFUNDED, REASON);

    assertThat(result).isEqualTo(ActionResult.done("marked REFUNDED by operator"));
    // Written once, by the callback inside the mark's transaction; not again after.
    assertThat(audited(AUDITED_REASON)).isEqualTo(result);
  }

  @Test
  void aSecondMark_refusedByPayments_isShownAndAudited() {
    when(actions.flaggedLateCharges.markHandled(
            anyString(), any(), anyString(), anyString(), any()))
        .thenAnswer(
            answering(
                new HandlingAnswer(
                    HandlingAnswer.Result.REFUSED,
                    "already handled by bob at 2026-12-06T03:10:00Z (ACCEPTED: ok); nothing"
                        + " changed",
                    null)));

    ActionResult result =
        actions.markLateChargeHandled("operator", "p-1", Handling.REFUNDED, REASON);

    assertThat(result.status()).isEqualTo(ActionResult.Status.REFUSED);
    assertThat(result.message()).startsWith("already handled by bob at 2026-12-06T03:10:00Z");
    assertThat(audited(AUDITED_REASON)).isEqualTo(result);
  }

  @Test
  void aReasonShorterThan20Characters_isRefusedWithoutCallingPayments_andAudited() {
    String reason = "refunded it [ticket INC-42]";

    ActionResult result =
        actions.markLateChargeHandled("operator", "p-1", Handling.REFUNDED, reason);

    assertThat(result.status()).isEqualTo(ActionResult.Status.REFUSED);
    assertThat(result.message()).contains("at least 20 characters");
    assertThat(audited("payment p-1, REFUNDED: " + reason)).isEqualTo(result);
    verify(actions.flaggedLateCharges, never())
        .markHandled(anyString(), any(), anyString(), anyString(), any());
  }

  @Test
  void aReasonWithoutATicket_orWithABlankOne_isRefusedWithoutCallingPayments_andAudited() {
    String noTicket = "refunded ch_late in the processor's dashboard";
    String blankTicket = noTicket + " [ticket  ]";

    ActionResult first =
        actions.markLateChargeHandled("operator", "p-1", Handling.ACCEPTED, noTicket);
    ActionResult second =
        actions.markLateChargeHandled("operator", "p-1", Handling.ACCEPTED, blankTicket);

    assertThat(first.status()).isEqualTo(ActionResult.Status.REFUSED);
    assertThat(first.message()).contains("ticket reference is required");
    assertThat(second).isEqualTo(first);
    verify(actions.audit, times(2))
        .append(
            eq("operator"),
            eq(OperatorActions.LATE_CHARGE_HANDLED),
            eq(KEY),
            anyString(),
            eq(first));
    verify(actions.flaggedLateCharges, never())
        .markHandled(anyString(), any(), anyString(), anyString(), any());
  }

  @Test
  void noReason_noHandling_orNoPayment_isRefusedAndAudited() {
    assertThat(actions.markLateChargeHandled("operator", "p-1", Handling.ACCEPTED, " ").message())
        .contains("a reason is required");
    assertThat(actions.markLateChargeHandled("operator", "p-1", null, REASON).message())
        .contains("refunded or accepted");
    ActionResult noPayment =
        actions.markLateChargeHandled("operator", null, Handling.ACCEPTED, REASON);
    assertThat(noPayment.message()).contains("select the late charge");

    verify(actions.audit)
        .append(
            eq("operator"),
            eq(OperatorActions.LATE_CHARGE_HANDLED),
            eq(null),
            eq("payment null, ACCEPTED: " + REASON),
            eq(noPayment));
    verify(actions.flaggedLateCharges, never())
        .markHandled(anyString(), any(), anyString(), anyString(), any());
  }

  @Test
  void aMarkThatFails_isAuditedAsFailed_afterItsTransactionRolledBack() {
    when(actions.flaggedLateCharges.markHandled(
            anyString(), any(), anyString(), anyString(), any()))
        .thenThrow(new IllegalStateException("database down"));

    ActionResult result =
        actions.markLateChargeHandled("operator", "p-1", Handling.REFUNDED, REASON);

    assertThat(result.status()).isEqualTo(ActionResult.Status.FAILED);
    assertThat(result.message()).contains("database down");
    assertThat(audited(AUDITED_REASON)).isEqualTo(result);
  }

  @Test
  void anAuditEntryThatCannotBeWritten_inTheMarksTransaction_failsTheMark() {
    HandlingAnswer done = new HandlingAnswer(HandlingAnswer.Result.DONE, "marked", null);
    when(actions.flaggedLateCharges.markHandled(
            anyString(), any(), anyString(), anyString(), any()))
        .thenAnswer(answering(done));
    doThrow(new IllegalStateException("audit table full"))
        .when(actions.audit)
        .append(any(), any(), any(), any(), eq(ActionResult.done("marked")));

    ActionResult result =
        actions.markLateChargeHandled("operator", "p-1", Handling.REFUNDED, REASON);

    // Payments rolls the mark back when its audit callback throws; the operator is told so.
    assertThat(result.status()).isEqualTo(ActionResult.Status.FAILED);
    assertThat(result.message()).contains("audit table full");
  }
}
