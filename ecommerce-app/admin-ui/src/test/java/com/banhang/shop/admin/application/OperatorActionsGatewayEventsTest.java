package com.banhang.shop.admin.application;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import com.banhang.shop.payments.api.GatewayEventView;
import com.banhang.shop.payments.api.GatewayEvents;
import com.banhang.shop.payments.api.PaymentRecord;
import com.banhang.shop.payments.api.PaymentRecords;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;

/**
 * Retrying a parked gateway event and marking a flagged one handled (docs/operations.md, "Gateway
 * events"): what the operator must give, what payments is asked, and the audit on the payment's
 * key, refusals and failures included.
 */
class OperatorActionsGatewayEventsTest {

  private static final KeyRef KEY = new KeyRef("alice", "payments.charge", "k1");
  private static final String REASON = "refunded ch_1 in the processor's dashboard [ticket INC-42]";

  private final OperatorActions actions = new OperatorActions();

  @BeforeEach
  void collaborators() {
    actions.audit = mock(AuditLog.class);
    actions.gatewayEvents = mock(GatewayEvents.class);
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
                    null,
                    Instant.EPOCH,
                    Instant.EPOCH)));
  }

  static GatewayEventView event(String status, String paymentId, String handledBy) {
    return new GatewayEventView(
        "sandbox",
        "evt_1",
        "charge.succeeded",
        "ch_1",
        "gk",
        paymentId,
        status,
        "detail of evt_1",
        "signature verified with secret 1 of 1",
        1,
        1,
        Instant.EPOCH,
        Instant.EPOCH,
        Instant.EPOCH,
        handledBy,
        handledBy == null ? null : "accepted at the processor [ticket INC-7]");
  }

  private void found(GatewayEventView... answers) {
    var stub = when(actions.gatewayEvents.find("sandbox", "evt_1"));
    for (GatewayEventView answer : answers) {
      stub = stub.thenReturn(Optional.ofNullable(answer));
    }
  }

  private ActionResult audited(String action, KeyRef ref, String reason) {
    ArgumentCaptor<ActionResult> result = ArgumentCaptor.forClass(ActionResult.class);
    verify(actions.audit).append(eq("operator"), eq(action), eq(ref), eq(reason), result.capture());
    return result.getValue();
  }

  // --- Retry

  @Test
  void aParkedEvent_isRetriedByPayments_andTheAnswerSaysWhereItStandsAfter_auditedOnThePayment() {
    found(event("PARKED", "p-1", null), event("SETTLED", "p-1", null));
    when(actions.gatewayEvents.retry("sandbox", "evt_1")).thenReturn(true);

    ActionResult result = actions.retryGatewayEvent("operator", "sandbox", "evt_1");

    assertThat(result)
        .isEqualTo(ActionResult.done("gateway event evt_1 retried: now SETTLED (detail of evt_1)"));
    assertThat(audited(OperatorActions.RETRY_GATEWAY_EVENT, KEY, "gateway event sandbox/evt_1"))
        .isEqualTo(result);
  }

  @Test
  void anEventThatIsNotParked_isRefusedWithoutRetrying_andAudited() {
    found(event("FLAGGED", "p-1", null));

    ActionResult result = actions.retryGatewayEvent("operator", "sandbox", "evt_1");

    assertThat(result)
        .isEqualTo(
            ActionResult.refused(
                "gateway event evt_1 is FLAGGED, not parked: only a parked event is retried"));
    assertThat(audited(OperatorActions.RETRY_GATEWAY_EVENT, KEY, "gateway event sandbox/evt_1"))
        .isEqualTo(result);
    verify(actions.gatewayEvents, never()).retry(anyString(), anyString());
  }

  @Test
  void anUnknownEvent_orNoSelection_isRefusedAndAudited_withoutAKey() {
    found((GatewayEventView) null);

    ActionResult unknown = actions.retryGatewayEvent("operator", "sandbox", "evt_1");
    ActionResult none = actions.retryGatewayEvent("operator", null, " ");

    assertThat(unknown).isEqualTo(ActionResult.refused("no gateway event evt_1 from sandbox"));
    assertThat(none.message()).isEqualTo("select the gateway event to retry");
    verify(actions.audit)
        .append(
            "operator",
            OperatorActions.RETRY_GATEWAY_EVENT,
            null,
            "gateway event sandbox/evt_1",
            unknown);
    verify(actions.gatewayEvents, never()).retry(any(), any());
  }

  @Test
  void aRetryThatLostTheRace_isRefused_andOneThatFails_isAuditedAsFailed() {
    found(event("PARKED", null, null));
    when(actions.gatewayEvents.retry("sandbox", "evt_1"))
        .thenReturn(false)
        .thenThrow(new IllegalStateException("database down"));

    ActionResult lost = actions.retryGatewayEvent("operator", "sandbox", "evt_1");
    ActionResult failed = actions.retryGatewayEvent("operator", "sandbox", "evt_1");

    assertThat(lost.status()).isEqualTo(ActionResult.Status.REFUSED);
    assertThat(lost.message()).contains("no longer parked");
    assertThat(failed.status()).isEqualTo(ActionResult.Status.FAILED);
    assertThat(failed.message()).contains("database down");
    // An event matched with no payment is audited without a key.
    verify(actions.audit)
        .append(
            "operator",
            OperatorActions.RETRY_GATEWAY_EVENT,
            null,
            "gateway event sandbox/evt_1",
            failed);
  }

  // --- Mark handled

  /** Payments marks the event, running the console's audit in the mark's transaction. */
  private void paymentsMarksAndRunsTheAudit() {
    when(actions.gatewayEvents.markHandled(
            eq("sandbox"), eq("evt_1"), eq("operator"), eq(REASON), any()))
        .thenAnswer(
            call -> {
              call.<Runnable>getArgument(4).run();
              return true;
            });
  }

  @Test
  void aFlaggedEvent_isMarkedByPayments_withTheOperatorAndReason_andAuditedOnThePayment() {
    found(event("FLAGGED", "p-1", null));
    paymentsMarksAndRunsTheAudit();

    ActionResult result =
        actions.markGatewayEventHandled("operator", "sandbox", "evt_1", "  " + REASON + " ");

    assertThat(result.status()).isEqualTo(ActionResult.Status.DONE);
    assertThat(result.message())
        .isEqualTo(
            "gateway event evt_1 marked handled by operator; nothing was applied to the payment");
    assertThat(
            audited(
                OperatorActions.GATEWAY_EVENT_HANDLED,
                KEY,
                "gateway event sandbox/evt_1: " + REASON))
        .isEqualTo(result);
  }

  @Test
  void aSecondMark_isRefusedWithWhoHandledIt_andNothingIsAsked() {
    found(event("FLAGGED", "p-1", "carol"));

    ActionResult result = actions.markGatewayEventHandled("operator", "sandbox", "evt_1", REASON);

    assertThat(result)
        .isEqualTo(
            ActionResult.refused(
                "gateway event evt_1 was already handled by carol (accepted at the processor"
                    + " [ticket INC-7]); nothing changed"));
    assertThat(
            audited(
                OperatorActions.GATEWAY_EVENT_HANDLED,
                KEY,
                "gateway event sandbox/evt_1: " + REASON))
        .isEqualTo(result);
    verify(actions.gatewayEvents, never()).markHandled(any(), any(), any(), any(), any());
  }

  @Test
  void aMarkThatLostTheRace_namesWhoWon() {
    found(event("FLAGGED", "p-1", null), event("FLAGGED", "p-1", "carol"));
    when(actions.gatewayEvents.markHandled(
            eq("sandbox"), eq("evt_1"), eq("operator"), eq(REASON), any()))
        .thenReturn(false);

    ActionResult result = actions.markGatewayEventHandled("operator", "sandbox", "evt_1", REASON);

    assertThat(result.status()).isEqualTo(ActionResult.Status.REFUSED);
    assertThat(result.message()).contains("already handled by carol");
  }

  @Test
  void anEventThatIsNotFlagged_isRefused() {
    found(event("SETTLED", "p-1", null));

    ActionResult result = actions.markGatewayEventHandled("operator", "sandbox", "evt_1", REASON);

    assertThat(result.message())
        .isEqualTo(
            "gateway event evt_1 is SETTLED, not flagged: only a flagged event is marked handled");
    verify(actions.gatewayEvents, never()).markHandled(any(), any(), any(), any(), any());
  }

  @Test
  void aReasonWithoutATicket_tooShort_orTooLong_isRefusedWithoutAskingPayments_andAudited() {
    ActionResult noTicket =
        actions.markGatewayEventHandled(
            "operator", "sandbox", "evt_1", "refunded ch_1 in the processor's dashboard");
    ActionResult tooShort =
        actions.markGatewayEventHandled("operator", "sandbox", "evt_1", "done [ticket INC-42]");
    ActionResult tooLong =
        actions.markGatewayEventHandled(
            "operator", "sandbox", "evt_1", "x".repeat(490) + " [ticket INC-42]");
    ActionResult none = actions.markGatewayEventHandled("operator", "sandbox", "evt_1", " ");

    assertThat(noTicket.message())
        .isEqualTo(
            "a ticket reference is required to mark a gateway event handled: end the reason with"
                + " [ticket <reference>]");
    assertThat(tooShort.message()).contains("at least 20 characters");
    assertThat(tooLong.message()).contains("at most 500 characters");
    assertThat(none.message()).isEqualTo("a reason is required to mark a gateway event handled");
    verify(actions.audit)
        .append(
            "operator",
            OperatorActions.GATEWAY_EVENT_HANDLED,
            null,
            "gateway event sandbox/evt_1: done [ticket INC-42]",
            tooShort);
    verify(actions.gatewayEvents, never()).find(any(), any());
    verify(actions.gatewayEvents, never()).markHandled(any(), any(), any(), any(), any());
  }

  @Test
  void aMarkThatFails_isAuditedAsFailed() {
    found(event("FLAGGED", "p-1", null));
    when(actions.gatewayEvents.markHandled(
            anyString(), anyString(), anyString(), anyString(), any()))
        .thenThrow(new IllegalStateException("database down"));

    ActionResult result = actions.markGatewayEventHandled("operator", "sandbox", "evt_1", REASON);

    assertThat(result.status()).isEqualTo(ActionResult.Status.FAILED);
    assertThat(
            audited(
                OperatorActions.GATEWAY_EVENT_HANDLED,
                KEY,
                "gateway event sandbox/evt_1: " + REASON))
        .isEqualTo(result);
  }

  @Test
  void anAuditEntryThatCannotBeWritten_leavesTheEventUnmarked_andTheAnswerSaysSo() {
    found(event("FLAGGED", "p-1", null));
    // Payments runs the audit in the mark's transaction: its failure rolls the mark back.
    paymentsMarksAndRunsTheAudit();
    doThrow(new IllegalStateException("audit table full"))
        .when(actions.audit)
        .append(any(), any(), any(), any(), any());

    ActionResult result = actions.markGatewayEventHandled("operator", "sandbox", "evt_1", REASON);

    assertThat(result.status()).isEqualTo(ActionResult.Status.FAILED);
    assertThat(result.message()).contains("audit table full");
  }
}
