package com.banhang.shop.payments.application;

import static com.banhang.shop.payments.application.Fixtures.AMOUNT;
import static com.banhang.shop.payments.application.Fixtures.GATEWAY_KEY;
import static com.banhang.shop.payments.application.Fixtures.KEY;
import static com.banhang.shop.payments.application.Fixtures.ORDER;
import static com.banhang.shop.payments.application.Fixtures.TENANT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.contains;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import com.banhang.idempotency.ClaimedKey;
import com.banhang.idempotency.IdempotencyKeys;
import com.banhang.idempotency.IdempotencyRecord;
import com.banhang.shop.payments.api.ReconciliationChecked;
import com.banhang.shop.payments.api.ReconciliationReport;
import com.banhang.shop.payments.api.ReconciliationReport.Finding;
import com.banhang.shop.payments.api.TimelineEntry;
import com.banhang.shop.payments.domain.model.Payment;
import jakarta.enterprise.event.Event;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

/** Which keys a run takes, and what it records and fires per key, against mocked collaborators. */
@ExtendWith(MockitoExtension.class)
class DefaultReconciliationTest {

  private static final Duration MIN_AGE = Duration.ofMinutes(2);
  private static final int BATCH = 7;

  @Mock IdempotencyKeys keys;
  @Mock PaymentService payments;
  @Mock PaymentGateway gateway;
  @Mock PayOrder payOrder;
  @Mock Event<ReconciliationChecked> checks;

  private final DefaultReconciliation reconciliation = new DefaultReconciliation();
  private final InMemoryTimeline timeline = new InMemoryTimeline();
  private Payment payment;

  @BeforeEach
  void wire() {
    reconciliation.keys = keys;
    reconciliation.payments = payments;
    reconciliation.gateway = gateway;
    reconciliation.payOrder = payOrder;
    reconciliation.checks = checks;
    reconciliation.timeline = InMemoryTimeline.timeline(timeline);
    reconciliation.batchSize = BATCH;
    reconciliation.gatewayKeyRetention = Duration.ofHours(24);
    reconciliation.defaultMinimumAge = MIN_AGE;
    payment = Fixtures.pendingPayment();
  }

  private void runFinds(IdempotencyRecord... found) {
    when(keys.findProcessing(PayOrder.OPERATION, MIN_AGE, Set.of("NEEDS_OPERATOR"), BATCH))
        .thenReturn(List.of(found));
  }

  @Test
  void aBatchOfNoKeys_readsNothing() {
    // SQL Server refuses FETCH NEXT 0 ROWS: a run with batch size 0 must not ask for that page.
    reconciliation.batchSize = 0;

    ReconciliationReport report = reconciliation.reconcileDueKeys();

    assertThat(report.examined()).isZero();
    verifyNoInteractions(keys, checks);
  }

  @Test
  void aRunSkipsKeysParkedForAnOperator() {
    runFinds();

    ReconciliationReport report = reconciliation.reconcileDueKeys();

    assertThat(report.examined()).isZero();
    verify(keys).findProcessing(PayOrder.OPERATION, MIN_AGE, Set.of("NEEDS_OPERATOR"), BATCH);
    verify(keys, never()).findProcessing(anyString(), any(), anyInt());
    verifyNoInteractions(checks);
  }

  @Test
  void aKeyTheGatewayForgotIsRecordedAsNeedingAnOperatorAndLeftProcessing() {
    IdempotencyRecord key = Fixtures.processing(Duration.ofHours(25));
    ClaimedKey claim = key.claimedKey();
    runFinds(key);
    when(payments.paymentOf(claim)).thenReturn(Optional.of(payment));
    when(gateway.findByKey(GATEWAY_KEY)).thenReturn(Optional.empty());
    // A stale attempt: the row moved on; the run must not care.
    when(keys.recordCheck(eq(claim), eq("NEEDS_OPERATOR"), anyString())).thenReturn(false);

    ReconciliationReport report = reconciliation.reconcileDueKeys();

    assertThat(report.findings()).containsEntry(Finding.NEEDS_OPERATOR, 1);
    verify(keys).recordCheck(eq(claim), eq("NEEDS_OPERATOR"), contains(GATEWAY_KEY));
    verify(checks).fire(new ReconciliationChecked(Finding.NEEDS_OPERATOR));
    verify(payments, never()).abandon(anyString(), anyString(), anyString());
    verify(keys, never()).release(any());
  }

  @Test
  void anUnreachableGatewayIsRecorded() {
    IdempotencyRecord key = Fixtures.processing(Duration.ofMinutes(5));
    runFinds(key);
    when(payments.paymentOf(key.claimedKey())).thenReturn(Optional.of(payment));
    when(gateway.findByKey(GATEWAY_KEY))
        .thenThrow(new GatewayUnavailableException("connection refused", null));

    ReconciliationReport report = reconciliation.reconcileDueKeys();

    assertThat(report.findings()).containsEntry(Finding.GATEWAY_UNREACHABLE, 1);
    verify(keys)
        .recordCheck(
            eq(key.claimedKey()), eq("GATEWAY_UNREACHABLE"), contains("connection refused"));
    verify(checks).fire(new ReconciliationChecked(Finding.GATEWAY_UNREACHABLE));
  }

  @Test
  void aKeyStillLeasedIsRecordedAsStillRunningWithoutLookingAtIt() {
    IdempotencyRecord key =
        Fixtures.record(
            IdempotencyRecord.Status.PROCESSING, false, Instant.now().plusSeconds(20), null);
    runFinds(key);

    ReconciliationReport report = reconciliation.reconcileDueKeys();

    assertThat(report.findings()).containsEntry(Finding.STILL_RUNNING, 1);
    verify(keys).recordCheck(eq(key.claimedKey()), eq("STILL_RUNNING"), anyString());
    verify(checks).fire(new ReconciliationChecked(Finding.STILL_RUNNING));
    verifyNoInteractions(payments, gateway, payOrder);
  }

  // ------------------------------------------------------------------ the database's clock
  // docs/payments.md, "Several nodes": the lease and the gateway's key retention are judged on the
  // database's clock at the read, whatever this server's clock says.

  private static final Duration SKEW = Duration.ofMinutes(10);

  @Test
  void aLeaseRunningByTheDatabase_appClockAhead_isStillRunning() {
    Instant databaseNow = Instant.now().minus(SKEW);
    runFinds(
        Fixtures.processingSeenAt(
            databaseNow, Duration.ofSeconds(10), Duration.ofSeconds(20), false));

    ReconciliationReport report = reconciliation.reconcileDueKeys();

    assertThat(report.findings()).containsEntry(Finding.STILL_RUNNING, 1);
    verifyNoInteractions(payments, gateway, payOrder);
  }

  @Test
  void aLeaseRunOutByTheDatabase_appClockBehind_isReconciled() {
    Instant databaseNow = Instant.now().plus(SKEW);
    IdempotencyRecord key =
        Fixtures.processingSeenAt(
            databaseNow, Duration.ofMinutes(3), Duration.ofSeconds(-1), false);
    runFinds(key);
    when(payments.paymentOf(key.claimedKey())).thenReturn(Optional.empty());
    when(keys.release(key.claimedKey())).thenReturn(true);

    ReconciliationReport report = reconciliation.reconcileDueKeys();

    assertThat(report.findings()).containsEntry(Finding.RELEASED, 1);
  }

  @Test
  void aKeyYoungerThanTheGatewayRetentionByTheDatabase_appClockAhead_isReleased() {
    Instant databaseNow = Instant.now().minus(SKEW.multipliedBy(2));
    IdempotencyRecord key =
        Fixtures.processingSeenAt(
            databaseNow, Duration.ofHours(24).minusMinutes(10), Duration.ofHours(-23), true);
    runFinds(key);
    when(payments.paymentOf(key.claimedKey())).thenReturn(Optional.of(payment));
    when(gateway.findByKey(GATEWAY_KEY)).thenReturn(Optional.empty());
    when(keys.release(key.claimedKey())).thenReturn(true);

    ReconciliationReport report = reconciliation.reconcileDueKeys();

    assertThat(report.findings()).containsEntry(Finding.RELEASED, 1);
    verify(payments).abandon(eq(payment.id()), eq(Timeline.RECONCILIATION), anyString());
  }

  @Test
  void aKeyOlderThanTheGatewayRetentionByTheDatabase_appClockBehind_needsAnOperator() {
    Instant databaseNow = Instant.now().plus(SKEW.multipliedBy(2));
    IdempotencyRecord key =
        Fixtures.processingSeenAt(
            databaseNow, Duration.ofHours(24).plusMinutes(10), Duration.ofHours(-23), true);
    runFinds(key);
    when(payments.paymentOf(key.claimedKey())).thenReturn(Optional.of(payment));
    when(gateway.findByKey(GATEWAY_KEY)).thenReturn(Optional.empty());

    ReconciliationReport report = reconciliation.reconcileDueKeys();

    assertThat(report.findings()).containsEntry(Finding.NEEDS_OPERATOR, 1);
    verify(payments, never()).abandon(anyString(), anyString(), anyString());
    verify(keys, never()).release(any());
  }

  @Test
  void anUnexpectedErrorIsRecordedAsFailed() {
    IdempotencyRecord key = Fixtures.processing(Duration.ofMinutes(5));
    runFinds(key);
    when(payments.paymentOf(key.claimedKey())).thenThrow(new IllegalStateException("boom"));

    ReconciliationReport report = reconciliation.reconcileDueKeys();

    assertThat(report.findings()).containsEntry(Finding.FAILED, 1);
    verify(keys).recordCheck(eq(key.claimedKey()), eq("FAILED"), contains("boom"));
    verify(checks).fire(new ReconciliationChecked(Finding.FAILED));
  }

  @Test
  void everyCheck_goesToTheKeysTimeline_withWhatTheGatewaySaid_whileLastCheckKeepsOnlyTheLast() {
    IdempotencyRecord parked = Fixtures.processing(Duration.ofHours(30));
    when(keys.find(TENANT, PayOrder.OPERATION, KEY)).thenReturn(Optional.of(parked));
    when(payments.paymentOf(parked.claimedKey())).thenReturn(Optional.of(payment));
    when(gateway.findByKey(GATEWAY_KEY))
        .thenThrow(new GatewayUnavailableException("connection refused", null))
        .thenReturn(Optional.empty());

    reconciliation.reconcileKey(TENANT, KEY);
    reconciliation.reconcileKey(TENANT, KEY);

    assertThat(timeline.entries)
        .extracting(PaymentTimeline.Entry::kind)
        .containsOnly(TimelineEntry.Kind.RECONCILIATION_CHECK)
        .hasSize(2);
    assertThat(timeline.entries.get(0).detail())
        .startsWith("GATEWAY_UNREACHABLE")
        .contains("connection refused");
    assertThat(timeline.entries.get(1).detail())
        .startsWith("NEEDS_OPERATOR")
        .contains("The gateway said: no charge under gateway key " + GATEWAY_KEY);
    assertThat(timeline.entries)
        .allSatisfy(
            e -> {
              assertThat(e.actor()).isEqualTo(Timeline.RECONCILIATION);
              assertThat(e.paymentId()).isEqualTo(payment.id());
              assertThat(e.tenantId()).isEqualTo(TENANT);
              assertThat(e.idempotencyKey()).isEqualTo(KEY);
            });
  }

  @Test
  void aSettlingCheck_andACheckOfAKeyWithoutAttempt_areOnTheTimelineToo() {
    IdempotencyRecord charged = Fixtures.processing(Duration.ofMinutes(5));
    runFinds(charged);
    when(payments.paymentOf(charged.claimedKey())).thenReturn(Optional.of(payment));
    PaymentGateway.ChargeDetails charge =
        new PaymentGateway.ChargeDetails("ch_1", true, AMOUNT, "VND", ORDER, GATEWAY_KEY);
    when(gateway.findByKey(GATEWAY_KEY)).thenReturn(Optional.of(charge));
    when(payOrder.completeClaim(charged.claimedKey(), payment.id(), charge.charge()))
        .thenAnswer(
            call -> {
              payment.capture("ch_1");
              return payment;
            });

    reconciliation.reconcileDueKeys();

    assertThat(timeline.entries).hasSize(1);
    assertThat(timeline.entries.get(0).detail())
        .startsWith("CAPTURED")
        .contains("succeeded charge ch_1 of " + AMOUNT + " VND for order " + ORDER);
  }

  @Test
  void aTimelineThatCannotBeWritten_changesNoFinding() {
    timeline.failure = new IllegalStateException("timeline down");
    IdempotencyRecord key = Fixtures.processing(Duration.ofMinutes(5));
    runFinds(key);
    when(payments.paymentOf(key.claimedKey())).thenReturn(Optional.empty());
    when(keys.release(key.claimedKey())).thenReturn(true);

    assertThat(reconciliation.reconcileDueKeys().findings()).containsEntry(Finding.RELEASED, 1);
  }

  @Test
  void aSettledKeyFiresItsOutcomeButRecordsNoCheck() {
    IdempotencyRecord charged = Fixtures.processing(Duration.ofMinutes(5));
    runFinds(charged);
    when(payments.paymentOf(charged.claimedKey())).thenReturn(Optional.of(payment));
    PaymentGateway.ChargeDetails charge =
        new PaymentGateway.ChargeDetails("ch_1", true, AMOUNT, "VND", ORDER, GATEWAY_KEY);
    when(gateway.findByKey(GATEWAY_KEY)).thenReturn(Optional.of(charge));
    when(payOrder.completeClaim(charged.claimedKey(), payment.id(), charge.charge()))
        .thenAnswer(
            call -> {
              payment.capture("ch_1");
              return payment;
            });

    ReconciliationReport report = reconciliation.reconcileDueKeys();

    assertThat(report.findings()).containsEntry(Finding.CAPTURED, 1);
    verify(checks).fire(new ReconciliationChecked(Finding.CAPTURED));
    verify(keys, never()).recordCheck(any(), anyString(), any());
  }

  @Test
  void aPaymentRecordedWhoseKeyWasNotCompleted_completesTheKeyWithItsAnswer() {
    IdempotencyRecord key = Fixtures.processing(Duration.ofMinutes(5));
    runFinds(key);
    payment.capture("ch_1");
    when(payments.paymentOf(key.claimedKey())).thenReturn(Optional.of(payment));

    ReconciliationReport report = reconciliation.reconcileDueKeys();

    assertThat(report.findings()).containsEntry(Finding.CAPTURED, 1);
    verify(payOrder).completeClaim(key.claimedKey(), payment);
    verifyNoInteractions(gateway);
  }

  @Test
  void aReleasedKeyRecordsNoCheck() {
    IdempotencyRecord key = Fixtures.processing(Duration.ofMinutes(5));
    runFinds(key);
    when(payments.paymentOf(key.claimedKey())).thenReturn(Optional.empty());
    when(keys.release(key.claimedKey())).thenReturn(true);

    ReconciliationReport report = reconciliation.reconcileDueKeys();

    assertThat(report.findings()).containsEntry(Finding.RELEASED, 1);
    verify(checks).fire(new ReconciliationChecked(Finding.RELEASED));
    verify(keys, never()).recordCheck(any(), anyString(), any());
  }

  @Test
  void aFailingCheckRecordDoesNotChangeTheOutcome() {
    IdempotencyRecord key = Fixtures.processing(Duration.ofHours(25));
    runFinds(key);
    when(payments.paymentOf(key.claimedKey())).thenReturn(Optional.of(payment));
    when(gateway.findByKey(GATEWAY_KEY)).thenReturn(Optional.empty());
    when(keys.recordCheck(any(), anyString(), anyString()))
        .thenThrow(new IllegalStateException("store down"));

    ReconciliationReport report = reconciliation.reconcileDueKeys();

    assertThat(report.findings()).containsEntry(Finding.NEEDS_OPERATOR, 1);
    verify(checks).fire(new ReconciliationChecked(Finding.NEEDS_OPERATOR));
  }

  @Test
  void oneKeyOnRequestIsExaminedWhateverItsAgeAndLastCheck() {
    IdempotencyRecord parked =
        Fixtures.record(IdempotencyRecord.Status.PROCESSING, true, Instant.now(), "NEEDS_OPERATOR");
    when(keys.find(TENANT, PayOrder.OPERATION, KEY)).thenReturn(Optional.of(parked));
    when(payments.paymentOf(parked.claimedKey())).thenReturn(Optional.of(payment));
    when(gateway.findByKey(GATEWAY_KEY))
        .thenThrow(new GatewayUnavailableException("timeout", null));

    Finding finding = reconciliation.reconcileKey(TENANT, KEY);

    assertThat(finding).isEqualTo(Finding.GATEWAY_UNREACHABLE);
    verify(keys).recordCheck(eq(parked.claimedKey()), eq("GATEWAY_UNREACHABLE"), anyString());
    verify(checks).fire(new ReconciliationChecked(Finding.GATEWAY_UNREACHABLE));
    verify(keys, never()).findProcessing(anyString(), any(), any(), anyInt());
  }

  @Test
  void oneKeyOnRequestWhoseLeaseRunsIsStillRunning() {
    IdempotencyRecord young =
        Fixtures.record(
            IdempotencyRecord.Status.PROCESSING, false, Instant.now().plusSeconds(25), null);
    when(keys.find(TENANT, PayOrder.OPERATION, KEY)).thenReturn(Optional.of(young));

    Finding finding = reconciliation.reconcileKey(TENANT, KEY);

    assertThat(finding).isEqualTo(Finding.STILL_RUNNING);
    verify(keys).recordCheck(eq(young.claimedKey()), eq("STILL_RUNNING"), anyString());
    verifyNoInteractions(payments, gateway);
  }

  @Test
  void oneKeyOnRequestThatIsNotProcessingChangesNothing() {
    when(keys.find(TENANT, PayOrder.OPERATION, KEY))
        .thenReturn(
            Optional.of(
                Fixtures.record(IdempotencyRecord.Status.COMPLETED, false, Instant.now(), null)));

    assertThat(reconciliation.reconcileKey(TENANT, KEY)).isEqualTo(Finding.NOT_PROCESSING);

    when(keys.find(TENANT, PayOrder.OPERATION, "other")).thenReturn(Optional.empty());
    assertThat(reconciliation.reconcileKey(TENANT, "other")).isEqualTo(Finding.NOT_PROCESSING);

    verify(keys, never()).recordCheck(any(), anyString(), any());
    verify(keys, never()).release(any());
    verifyNoInteractions(payments, gateway, payOrder, checks);
  }

  @Test
  void aChargeFoundByKeyThatIsNotThePaymentsIsLeftToAnOperatorNeverCaptured() {
    // Another amount, another currency, another order: each alone is enough.
    List<PaymentGateway.ChargeDetails> forged =
        List.of(
            new PaymentGateway.ChargeDetails("ch_1", true, 1, "VND", ORDER, GATEWAY_KEY),
            new PaymentGateway.ChargeDetails("ch_2", true, AMOUNT, "USD", ORDER, GATEWAY_KEY),
            new PaymentGateway.ChargeDetails("ch_3", true, AMOUNT, "VND", "order-2", GATEWAY_KEY));
    for (PaymentGateway.ChargeDetails charge : forged) {
      IdempotencyRecord key = Fixtures.processing(Duration.ofMinutes(5));
      when(keys.find(TENANT, PayOrder.OPERATION, KEY)).thenReturn(Optional.of(key));
      when(payments.paymentOf(key.claimedKey())).thenReturn(Optional.of(payment));
      when(gateway.findByKey(GATEWAY_KEY)).thenReturn(Optional.of(charge));

      assertThat(reconciliation.reconcileKey(TENANT, KEY)).isEqualTo(Finding.NEEDS_OPERATOR);
      verify(keys)
          .recordCheck(eq(key.claimedKey()), eq("NEEDS_OPERATOR"), contains(charge.chargeId()));
    }
    verify(keys).recordCheck(any(), anyString(), contains("its amount is 1,"));
    verify(keys).recordCheck(any(), anyString(), contains("its currency is USD"));
    verify(keys).recordCheck(any(), anyString(), contains("order order-2"));
    verify(checks, org.mockito.Mockito.times(3))
        .fire(new ReconciliationChecked(Finding.NEEDS_OPERATOR));
    verifyNoInteractions(payOrder);
    verify(payments, never()).abandon(anyString(), anyString(), anyString());
    verify(keys, never()).release(any());
    verify(keys, never()).complete(any(), any());
  }

  @Test
  void aDeclineFoundByKeyOfThePaymentsAmountIsRecorded() {
    IdempotencyRecord key = Fixtures.processing(Duration.ofMinutes(5));
    runFinds(key);
    when(payments.paymentOf(key.claimedKey())).thenReturn(Optional.of(payment));
    PaymentGateway.ChargeDetails declined =
        new PaymentGateway.ChargeDetails("ch_d", false, AMOUNT, "VND", ORDER, GATEWAY_KEY);
    when(gateway.findByKey(GATEWAY_KEY)).thenReturn(Optional.of(declined));
    when(payOrder.completeClaim(key.claimedKey(), payment.id(), declined.charge()))
        .thenAnswer(
            call -> {
              payment.decline("ch_d");
              return payment;
            });

    assertThat(reconciliation.reconcileDueKeys().findings()).containsEntry(Finding.DECLINED, 1);
  }

  @Test
  void oneBadRowNeverStopsTheRunForTheOthers() {
    // An unreadable row (no lease: what a row the store could not fully read looks like), a row
    // whose payment lookup fails, a row whose gateway lookup fails unexpectedly, then a good one.
    IdempotencyRecord unreadable = Fixtures.processing("key-unreadable", false, null);
    IdempotencyRecord failingPayment =
        Fixtures.processing("key-db", true, Instant.now().minusSeconds(60));
    IdempotencyRecord failingGateway =
        Fixtures.processing("key-gateway", true, Instant.now().minusSeconds(60));
    IdempotencyRecord good = Fixtures.processing("key-good", true, Instant.now().minusSeconds(60));
    runFinds(unreadable, failingPayment, failingGateway, good);
    when(payments.paymentOf(failingPayment.claimedKey()))
        .thenThrow(new IllegalStateException("cannot decrypt"));
    Payment other =
        new Payment(
            TENANT, "order-9", AMOUNT, "VND", "pm_card_ok", "banhang_gw9", "key-gateway", 2);
    when(payments.paymentOf(failingGateway.claimedKey())).thenReturn(Optional.of(other));
    when(gateway.findByKey("banhang_gw9")).thenThrow(new IllegalArgumentException("bad answer"));
    when(payments.paymentOf(good.claimedKey())).thenReturn(Optional.empty());
    when(keys.release(good.claimedKey())).thenReturn(true);

    ReconciliationReport report = reconciliation.reconcileDueKeys();

    assertThat(report.examined()).isEqualTo(4);
    assertThat(report.findings())
        .containsEntry(Finding.FAILED, 3)
        .containsEntry(Finding.RELEASED, 1);
    verify(keys).release(good.claimedKey());
    verify(keys).recordCheck(eq(unreadable.claimedKey()), eq("FAILED"), anyString());
    verify(keys)
        .recordCheck(eq(failingPayment.claimedKey()), eq("FAILED"), contains("cannot decrypt"));
    verify(keys).recordCheck(eq(failingGateway.claimedKey()), eq("FAILED"), contains("bad answer"));
    verify(checks, org.mockito.Mockito.times(3)).fire(new ReconciliationChecked(Finding.FAILED));
  }

  @Test
  void aRunsReportDoesNotListTheOneKeyOutcome() {
    runFinds();

    assertThat(reconciliation.reconcileDueKeys().findings())
        .doesNotContainKey(Finding.NOT_PROCESSING)
        .containsKeys(Finding.NEEDS_OPERATOR, Finding.FAILED);
  }
}
