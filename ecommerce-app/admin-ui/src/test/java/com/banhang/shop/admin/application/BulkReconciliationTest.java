package com.banhang.shop.admin.application;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;

class BulkReconciliationTest {

  private final BulkReconciliation bulk = new BulkReconciliation();
  private final List<BulkReconciliation.JobView> told = new ArrayList<>();

  @BeforeEach
  void collaborators() {
    bulk.stuck = mock(StuckOperations.class);
    bulk.actions = mock(OperatorActions.class);
    // The job runs where the test can watch it; in the server, on the managed executor.
    bulk.executor = Runnable::run;
  }

  private static StuckOperation row(String key) {
    Instant t = Instant.parse("2026-12-06T03:00:00Z");
    return new StuckOperation(
        new KeyRef("alice", "payments.charge", key), 1, t, t, true, null, null, t.plusSeconds(300));
  }

  @Test
  void reconcilesEveryMatchingChargeKey_asTheOperator_tellingEachStep() {
    when(bulk.stuck.page(any(), eq(0), anyInt()))
        .thenReturn(List.of(row("k1"), row("k2"), row("k3")));
    when(bulk.actions.reconcile(eq("night-op"), any()))
        .thenReturn(ActionResult.done("reconciled 1 key: CAPTURED=1"))
        .thenReturn(ActionResult.done("reconciled 1 key: NEEDS_OPERATOR=1"))
        .thenReturn(ActionResult.done("reconciled 1 key: CAPTURED=1"));

    BulkReconciliation.JobView started =
        bulk.start(
            "night-op",
            new StuckFilter("alice", "orders.create", null, Duration.ofMinutes(2)),
            told::add);

    ArgumentCaptor<StuckFilter> filter = ArgumentCaptor.forClass(StuckFilter.class);
    verify(bulk.stuck).page(filter.capture(), eq(0), anyInt());
    // Only payments.charge keys are reconciled, whatever operation the page was filtered by.
    assertThat(filter.getValue().operation()).isEqualTo("payments.charge");
    assertThat(filter.getValue().tenant()).isEqualTo("alice");
    verify(bulk.actions).reconcile("night-op", List.of(row("k2").ref()));

    BulkReconciliation.JobView last = told.get(told.size() - 1);
    assertThat(told).hasSize(5); // read, three keys, finished
    assertThat(last.running()).isFalse();
    assertThat(last.total()).isEqualTo(3);
    assertThat(last.done()).isEqualTo(3);
    assertThat(last.findings()).containsEntry("CAPTURED", 2).containsEntry("NEEDS_OPERATOR", 1);
    assertThat(last.lines()).singleElement().asString().contains("k2", "NEEDS_OPERATOR");
    assertThat(bulk.find(started.id())).contains(last);
  }

  @Test
  void aFailingReadEndsTheJobWithItsReason_andItStaysReadable() {
    when(bulk.stuck.page(any(), anyInt(), anyInt())).thenThrow(new IllegalStateException("db"));

    BulkReconciliation.JobView started =
        bulk.start("night-op", StuckFilter.olderThan(Duration.ZERO), told::add);

    BulkReconciliation.JobView last = bulk.find(started.id()).orElseThrow();
    assertThat(last.running()).isFalse();
    assertThat(last.failure()).contains("IllegalStateException", "db");
    assertThat(told).last().isEqualTo(last);
  }
}
