package com.banhang.shop.admin.application;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyBoolean;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import com.banhang.idempotency.BodyResealRun;
import com.banhang.idempotency.IdempotencyKeys;
import com.banhang.idempotency.PurgeRun;
import com.banhang.shop.payments.api.PaymentResolution;
import com.banhang.shop.payments.api.Reconciliation;
import com.banhang.shop.payments.api.ReconciliationReport.Finding;
import com.banhang.shop.payments.api.Resolution;
import com.banhang.shop.payments.api.ResolutionAudit;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;

class OperatorActionsTest {

  private static final KeyRef PAYMENT = new KeyRef("alice", "payments.charge", "k1");

  private final OperatorActions actions = new OperatorActions();

  @BeforeEach
  void collaborators() {
    actions.reconciliation = mock(Reconciliation.class);
    actions.resolution = mock(PaymentResolution.class);
    actions.keys = mock(IdempotencyKeys.class);
    actions.audit = mock(AuditLog.class);
  }

  @Test
  void resolveWithoutReason_refusedWithoutCallingPayments_andAudited() {
    ActionResult result = actions.resolveAsNotCharged("operator", PAYMENT, "  ");

    assertThat(result.status()).isEqualTo(ActionResult.Status.REFUSED);
    assertThat(result.message()).contains("reason");
    verify(actions.resolution, never()).resolveAsNotCharged(anyString(), anyString(), any());
    verify(actions.audit)
        .append(
            eq("operator"),
            eq(OperatorActions.RESOLVE_AS_NOT_CHARGED),
            eq(PAYMENT),
            eq("  "),
            eq(result));
  }

  @Test
  void resolveAsCharged_paymentsAnswerMapped_overrideAuditedAsSuch() {
    when(actions.resolution.resolveAsCharged(
            eq("alice"), eq("k1"), eq("ch_1"), eq(false), any(ResolutionAudit.class)))
        .thenReturn(
            new Resolution(
                Resolution.Result.CONFIRMATION_NEEDED, "gateway does not know", "p", "o"));
    when(actions.resolution.resolveAsCharged(
            eq("alice"), eq("k1"), eq("ch_1"), eq(true), any(ResolutionAudit.class)))
        .thenAnswer(
            auditedInTheSameTransaction(
                new Resolution(Resolution.Result.RESOLVED, "recorded", "p", "o")));

    ActionResult first = actions.resolveAsCharged("operator", PAYMENT, "ch_1", "statement", false);
    ActionResult second = actions.resolveAsCharged("operator", PAYMENT, "ch_1", "statement", true);

    assertThat(first.status()).isEqualTo(ActionResult.Status.CONFIRMATION_NEEDED);
    assertThat(second.status()).isEqualTo(ActionResult.Status.DONE);
    verify(actions.audit)
        .append(
            eq("operator"),
            eq(OperatorActions.RESOLVE_AS_CHARGED_OVERRIDE),
            eq(PAYMENT),
            eq("statement [charge ch_1]"),
            eq(second));
  }

  @Test
  void overrideNeedsApproval_proposedNotRun_proposerCannotApprove_secondOperatorRunsIt() {
    actions.overrideNeedsApproval = true;
    actions.proposals = mock(OverrideProposals.class);
    when(actions.resolution.resolveAsCharged(
            eq("alice"), eq("k1"), eq("ch_1"), eq(false), any(ResolutionAudit.class)))
        .thenReturn(
            new Resolution(
                Resolution.Result.CONFIRMATION_NEEDED, "gateway does not know", "p", "o"));
    when(actions.resolution.resolveAsCharged(
            eq("alice"), eq("k1"), eq("ch_1"), eq(true), any(ResolutionAudit.class)))
        .thenAnswer(
            auditedInTheSameTransaction(
                new Resolution(Resolution.Result.RESOLVED, "recorded", "p", "o")));
    when(actions.proposals.propose("operator", PAYMENT, "ch_1", "statement")).thenReturn(7L);
    OverrideProposal proposal =
        new OverrideProposal(
            7L, Instant.EPOCH, "operator", PAYMENT, "ch_1", "statement", "PROPOSED", null);
    when(actions.proposals.find(7L)).thenReturn(java.util.Optional.of(proposal));
    when(actions.proposals.approve(7L, "operator2")).thenReturn(true);

    ActionResult proposed =
        actions.resolveAsCharged("operator", PAYMENT, "ch_1", "statement", true);
    ActionResult own = actions.approveOverride("operator", 7L);
    verify(actions.resolution, never())
        .resolveAsCharged(eq("alice"), eq("k1"), eq("ch_1"), eq(true), any());
    ActionResult approved = actions.approveOverride("operator2", 7L);

    assertThat(proposed.status()).isEqualTo(ActionResult.Status.PROPOSED);
    assertThat(proposed.proposalId()).isEqualTo(7L);
    assertThat(own.status()).isEqualTo(ActionResult.Status.REFUSED);
    verify(actions.proposals, never()).approve(7L, "operator");
    assertThat(approved.status()).isEqualTo(ActionResult.Status.DONE);
    verify(actions.resolution).resolveAsCharged(eq("alice"), eq("k1"), eq("ch_1"), eq(true), any());
    verify(actions.audit)
        .append(
            eq("operator"),
            eq(OperatorActions.PROPOSE_OVERRIDE),
            eq(PAYMENT),
            eq("statement [charge ch_1]"),
            eq(proposed));
    verify(actions.audit)
        .append(
            eq("operator2"),
            eq(OperatorActions.APPROVE_OVERRIDE),
            eq(PAYMENT),
            eq("proposal 7 by operator: statement [charge ch_1]"),
            eq(approved));
  }

  @Test
  void resolveAnOrderKey_refused() {
    ActionResult result =
        actions.resolveAsNotCharged(
            "operator", new KeyRef("alice", "orders.create", "k"), "wrong key");

    assertThat(result.status()).isEqualTo(ActionResult.Status.REFUSED);
    verify(actions.resolution, never()).resolveAsNotCharged(anyString(), anyString(), any());
    verify(actions.resolution, never())
        .resolveAsCharged(anyString(), anyString(), anyString(), anyBoolean(), any());
  }

  @Test
  void reconcileSelection_eachKeyReconciledAndAudited_summaryCountsOutcomes() {
    KeyRef second = new KeyRef("bob", "payments.charge", "k2");
    KeyRef gone = new KeyRef("bob", "payments.charge", "k3");
    when(actions.reconciliation.reconcileKey("alice", "k1")).thenReturn(Finding.CAPTURED);
    when(actions.reconciliation.reconcileKey("bob", "k2")).thenReturn(Finding.NEEDS_OPERATOR);
    when(actions.reconciliation.reconcileKey("bob", "k3")).thenReturn(Finding.NOT_PROCESSING);

    ActionResult result = actions.reconcile("operator", List.of(PAYMENT, second, gone));

    assertThat(result.status()).isEqualTo(ActionResult.Status.DONE);
    assertThat(result.message())
        .contains("reconciled 3 keys", "CAPTURED=1", "NEEDS_OPERATOR=1", "k3 is not processing");
    ArgumentCaptor<ActionResult> audited = ArgumentCaptor.forClass(ActionResult.class);
    verify(actions.audit, org.mockito.Mockito.times(3))
        .append(eq("operator"), eq(OperatorActions.RECONCILE), any(), eq(null), audited.capture());
    assertThat(audited.getAllValues())
        .extracting(ActionResult::status)
        .containsExactly(
            ActionResult.Status.DONE, ActionResult.Status.DONE, ActionResult.Status.REFUSED);
  }

  @Test
  void reconcileWhileTheGatewayIsDown_failed() {
    when(actions.reconciliation.reconcileKey("alice", "k1"))
        .thenReturn(Finding.GATEWAY_UNREACHABLE);

    assertThat(actions.reconcile("operator", List.of(PAYMENT)).status())
        .isEqualTo(ActionResult.Status.FAILED);
  }

  @Test
  void purgeNow_runsAsTheOperator_andReportsRows() {
    when(actions.keys.purgeExpiredNow("operator"))
        .thenReturn(new PurgeRun(Instant.now(), "node-1", "operator", 42, 7));

    ActionResult result = actions.purgeNow("operator");

    assertThat(result.message()).isEqualTo("purged 42 expired keys in 7 ms on node-1");
    verify(actions.audit).append("operator", OperatorActions.PURGE, null, null, result);
  }

  @Test
  void resealBodies_runsAsTheOperator_andTheAuditSaysFromWhichKeysToWhichAndWhatRemains() {
    when(actions.keys.resealBodiesNow("operator"))
        .thenReturn(
            new BodyResealRun(
                Instant.now(),
                "node-1",
                "operator",
                java.util.Set.of("k1", "legacy"),
                "k2",
                40,
                0,
                2,
                2,
                BodyResealRun.Status.INCOMPLETE,
                "2 rows do not open with their key and are left as they are: run it again",
                9));

    ActionResult result = actions.resealBodies("operator");

    assertThat(result.status()).isEqualTo(ActionResult.Status.DONE);
    assertThat(result.message())
        .isEqualTo(
            "re-sealed 40 stored bodies from k1,legacy to k2 in 9 ms on node-1; 2 remain with an"
                + " old key: 2 rows do not open with their key and are left as they are: run it"
                + " again");
    verify(actions.audit).append("operator", OperatorActions.RESEAL_BODIES, null, null, result);
  }

  @Test
  void resealBodies_failing_isAuditedAsFailed() {
    when(actions.keys.resealBodiesNow("operator"))
        .thenThrow(new IllegalStateException("database down"));

    ActionResult result = actions.resealBodies("operator");

    assertThat(result.status()).isEqualTo(ActionResult.Status.FAILED);
    assertThat(result.message()).contains("database down");
    verify(actions.audit).append("operator", OperatorActions.RESEAL_BODIES, null, null, result);
  }

  @Test
  void auditWriteFails_theResolutionIsUndoneWithIt_answerFailed() {
    when(actions.resolution.resolveAsNotCharged(eq("alice"), eq("k1"), any(ResolutionAudit.class)))
        .thenAnswer(
            auditedInTheSameTransaction(
                new Resolution(Resolution.Result.RESOLVED, "released", "p", "o")));
    org.mockito.Mockito.doThrow(new IllegalStateException("disk full"))
        .when(actions.audit)
        .append(any(), any(), any(), any(), any());

    ActionResult result = actions.resolveAsNotCharged("operator", PAYMENT, "no charge");

    // The entry is written inside the resolution's transaction: its failure rolled the release
    // back (payments answers by throwing), so the operator is told it failed, not that it is done.
    assertThat(result.status()).isEqualTo(ActionResult.Status.FAILED);
    assertThat(result.message()).contains("disk full").contains("audit entry could not be written");
  }

  @Test
  void aResolutionIsAuditedOnceInsideItsTransaction_aRefusalOnceAfter() {
    when(actions.resolution.resolveAsNotCharged(eq("alice"), eq("k1"), any(ResolutionAudit.class)))
        .thenAnswer(
            auditedInTheSameTransaction(
                new Resolution(Resolution.Result.RESOLVED, "released", "p", "o")))
        .thenReturn(new Resolution(Resolution.Result.REFUSED, "already captured", "p", "o"));

    ActionResult done = actions.resolveAsNotCharged("operator", PAYMENT, "no charge");
    ActionResult refused = actions.resolveAsNotCharged("operator", PAYMENT, "no charge");

    assertThat(done.status()).isEqualTo(ActionResult.Status.DONE);
    assertThat(refused.status()).isEqualTo(ActionResult.Status.REFUSED);
    verify(actions.audit)
        .append(
            eq("operator"),
            eq(OperatorActions.RESOLVE_AS_NOT_CHARGED),
            eq(PAYMENT),
            eq("no charge"),
            eq(done));
    verify(actions.audit)
        .append(
            eq("operator"),
            eq(OperatorActions.RESOLVE_AS_NOT_CHARGED),
            eq(PAYMENT),
            eq("no charge"),
            eq(refused));
    org.mockito.Mockito.verifyNoMoreInteractions(actions.audit);
  }

  /** As payments does it: the caller's entry written inside the resolution's transaction. */
  private static org.mockito.stubbing.Answer<Resolution> auditedInTheSameTransaction(
      Resolution resolution) {
    return call -> {
      ResolutionAudit audit = call.getArgument(call.getArguments().length - 1);
      audit.record(resolution);
      return resolution;
    };
  }

  @Test
  void askGateway_isAReadAuditedWithWhatTheGatewaySaid_andChangesNothing() {
    actions.gatewayLookup = mock(com.banhang.shop.payments.api.GatewayLookup.class);
    actions.paymentRecords = mock(com.banhang.shop.payments.api.PaymentRecords.class);
    com.banhang.shop.payments.api.GatewayLookup.GatewayAnswer charged =
        new com.banhang.shop.payments.api.GatewayLookup.GatewayAnswer(
            com.banhang.shop.payments.api.GatewayLookup.GatewayAnswer.Finding.CHARGED,
            "ch_9",
            1250,
            "USD",
            "o-1",
            "a succeeded charge ch_9",
            Instant.EPOCH);
    when(actions.gatewayLookup.ask("p-1")).thenReturn(charged);
    when(actions.paymentRecords.find("p-1"))
        .thenReturn(
            java.util.Optional.of(
                new com.banhang.shop.payments.api.PaymentRecord(
                    "p-1",
                    "alice",
                    "o-1",
                    1250,
                    "USD",
                    "PENDING",
                    "gk",
                    null,
                    "k1",
                    1,
                    null,
                    Instant.EPOCH,
                    Instant.EPOCH)));

    assertThat(actions.askGateway("operator", "p-1")).isEqualTo(charged);

    ArgumentCaptor<ActionResult> result = ArgumentCaptor.forClass(ActionResult.class);
    verify(actions.audit)
        .append(
            eq("operator"),
            eq(OperatorActions.ASK_GATEWAY),
            eq(PAYMENT),
            eq("payment p-1"),
            result.capture());
    assertThat(result.getValue().status()).isEqualTo(ActionResult.Status.DONE);
    assertThat(result.getValue().message()).isEqualTo("CHARGED: a succeeded charge ch_9");
    verify(actions.resolution, never()).resolveAsNotCharged(anyString(), anyString(), any());
    verify(actions.reconciliation, never()).reconcileKey(anyString(), anyString());
  }

  @Test
  void askGateway_forNoSuchPayment_isRefusedAndAudited() {
    actions.gatewayLookup = mock(com.banhang.shop.payments.api.GatewayLookup.class);
    actions.paymentRecords = mock(com.banhang.shop.payments.api.PaymentRecords.class);
    when(actions.gatewayLookup.ask("nope"))
        .thenReturn(
            new com.banhang.shop.payments.api.GatewayLookup.GatewayAnswer(
                com.banhang.shop.payments.api.GatewayLookup.GatewayAnswer.Finding.NO_SUCH_PAYMENT,
                null,
                0,
                null,
                null,
                "no payment nope",
                Instant.EPOCH));
    when(actions.paymentRecords.find("nope")).thenReturn(java.util.Optional.empty());

    actions.askGateway("operator", "nope");

    ArgumentCaptor<ActionResult> result = ArgumentCaptor.forClass(ActionResult.class);
    verify(actions.audit)
        .append(
            eq("operator"),
            eq(OperatorActions.ASK_GATEWAY),
            eq(null),
            eq("payment nope"),
            result.capture());
    assertThat(result.getValue().status()).isEqualTo(ActionResult.Status.REFUSED);
  }
}
