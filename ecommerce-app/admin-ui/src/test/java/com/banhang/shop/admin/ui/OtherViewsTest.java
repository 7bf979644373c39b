package com.banhang.shop.admin.ui;

import static com.github.mvysny.kaributesting.v10.LocatorJ._click;
import static com.github.mvysny.kaributesting.v10.LocatorJ._find;
import static com.github.mvysny.kaributesting.v10.LocatorJ._get;
import static com.github.mvysny.kaributesting.v10.LocatorJ._setValue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.atLeastOnce;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import com.banhang.shop.admin.application.ActionResult;
import com.banhang.shop.admin.application.AuditEntry;
import com.banhang.shop.admin.application.BodyKeysSummary;
import com.banhang.shop.admin.application.KeyDetails;
import com.banhang.shop.admin.application.KeyRef;
import com.banhang.shop.admin.application.OverviewSnapshot;
import com.banhang.shop.admin.application.OverviewSnapshot.MinutePoint;
import com.banhang.shop.admin.application.OverviewSnapshot.OperationCounts;
import com.banhang.shop.admin.application.RetentionSummary;
import com.banhang.shop.admin.application.RetentionSummary.AgeBucketCount;
import com.banhang.shop.admin.application.RetentionSummary.PurgeRunView;
import com.github.mvysny.kaributesting.v10.GridKt;
import com.vaadin.flow.component.Html;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.combobox.ComboBox;
import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.textfield.TextArea;
import com.vaadin.flow.component.textfield.TextField;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class OtherViewsTest extends ConsoleTestBase {

  private static final Instant NOW = Instant.now().truncatedTo(ChronoUnit.MINUTES);

  @BeforeEach
  void operator() {
    loginAs("operator");
  }

  // --- Overview

  private static OverviewSnapshot snapshot(long spike) {
    List<MinutePoint> minutes = new ArrayList<>();
    for (int i = 59; i >= 0; i--) {
      minutes.add(
          new MinutePoint(
              NOW.minus(Duration.ofMinutes(i)),
              Map.of("new", i == 5 ? spike : 2L, "replayed", 1L, "in_progress", 0L)));
    }
    return new OverviewSnapshot(
        NOW,
        List.of(new OperationCounts("payments.charge", 50, 30, 10, 5, 3, 2)),
        Map.of("payments.charge", Map.of("1-5 min", 4L)),
        Map.of("payments.charge", NOW.minus(Duration.ofMinutes(7))),
        Map.of("payments.charge", 1L),
        Map.of("NEEDS_OPERATOR", 2L),
        6,
        minutes,
        3,
        2,
        1);
  }

  @Test
  @SuppressWarnings("unchecked")
  void theOverviewShowsCountsRatesRowsAndTheChart() {
    when(overview.snapshot()).thenReturn(snapshot(40));
    navigate(OverviewView.class);

    Grid<OperationCounts> ops = _get(Grid.class, s -> s.withId("overview-operations"));
    assertThat(GridKt._getFormattedRow(ops, 0))
        .containsExactly(
            "payments.charge",
            "100",
            "50 (50.0%)",
            "30 (30.0%)",
            "10 (10.0%)",
            "5 (5.0%)",
            "3 (3.0%)",
            "2 (2.0%)");
    Grid<OverviewView.Row> processing = _get(Grid.class, s -> s.withId("overview-processing"));
    List<String> rows = new ArrayList<>();
    for (int i = 0; i < GridKt._size(processing); i++) {
      rows.add(String.join(" | ", GridKt._getFormattedRow(processing, i)));
    }
    assertThat(rows)
        .contains("payments.charge | age 1-5 min | 4", "payments.charge | expired leases | 1")
        .anyMatch(r -> r.contains("oldest claimed") && r.contains("7 min 0 s ago"));
    Grid<OverviewView.Row> findings = _get(Grid.class, s -> s.withId("overview-reconciliation"));
    assertThat(GridKt._getFormattedRow(findings, 0)).containsExactly("NEEDS_OPERATOR", "2");
    assertThat(_get(Span.class, s -> s.withId("overview-gateway-errors")).getText())
        .isEqualTo("Gateway errors, last hour: 6");
    assertThat(_get(Span.class, s -> s.withId("overview-late-charges")).getText())
        .isEqualTo("Late charges needing an operator: 3 (see Late charges)");
    assertThat(_get(Span.class, s -> s.withId("overview-gateway-events")).getText())
        .isEqualTo(
            "Gateway events needing an operator: 3 (2 flagged, 1 parked: see Gateway events)");
    String svg = _get(Html.class).getInnerHtml();
    assertThat(svg).contains("<polyline data-series=\"new\"", "<polyline data-series=\"replayed\"");
    // The spike reaches the top of the plot: the y-axis scales to it.
    assertThat(svg).contains(">40</text>");
  }

  @Test
  void refreshTakesANewSnapshot() {
    when(overview.snapshot()).thenReturn(snapshot(1), snapshot(100));
    navigate(OverviewView.class);

    _click(_get(Button.class, s -> s.withId("refresh-button")));

    verify(overview, times(2)).snapshot();
    assertThat(_get(Html.class).getInnerHtml()).contains(">100</text>");
  }

  @Test
  void aFailingOverviewShowsAnErrorAndTheViewStillRenders() {
    when(overview.snapshot()).thenThrow(new UnsupportedOperationException("TODO"));
    navigate(OverviewView.class);

    assertThat(notificationTexts())
        .contains("Overview failed: UnsupportedOperationException (TODO)");
    assertThat(_get(Span.class, s -> s.withId("overview-taken-at")).getText())
        .contains("could not be read");
    assertThat(_get(Button.class, s -> s.withId("refresh-button"))).isNotNull();
  }

  // --- Key lookup

  @Test
  @SuppressWarnings("unchecked")
  void keyLookupShowsTheKeyWithItsMaskedBody() {
    KeyRef ref = new KeyRef("alice", "payments.charge", "k-1");
    when(keyLookup.find(ref))
        .thenReturn(
            Optional.of(
                new KeyDetails(
                    ref,
                    "COMPLETED",
                    false,
                    2,
                    "sha256:abc",
                    NOW,
                    NOW,
                    NOW.plus(Duration.ofHours(24)),
                    NOW,
                    201,
                    Map.of("Location", List.of("/api/v1/payments/p-1")),
                    "{\"amount\":\"***\",\"card\":\"****4242\"}",
                    null,
                    null)));
    navigate(KeyLookupView.class);
    _setValue(_get(TextField.class, s -> s.withId("key-tenant-field")), "alice");
    _setValue(_get(ComboBox.class, s -> s.withId("key-operation-field")), "payments.charge");
    _setValue(_get(TextField.class, s -> s.withId("key-field")), "k-1");

    _click(_get(Button.class, s -> s.withId("lookup-button")));

    assertThat(_get(Span.class, s -> s.withId("key-status")).getText()).isEqualTo("COMPLETED");
    assertThat(_get(Span.class, s -> s.withId("key-response-status")).getText()).isEqualTo("201");
    assertThat(_get(TextArea.class, s -> s.withId("key-headers")).getValue())
        .isEqualTo("Location: /api/v1/payments/p-1");
    TextArea body = _get(TextArea.class, s -> s.withId("key-body"));
    assertThat(body.getValue()).isEqualTo("{\"amount\":\"***\",\"card\":\"****4242\"}");
    assertThat(body.isReadOnly()).isTrue();
  }

  @Test
  @SuppressWarnings("unchecked")
  void keyLookupSaysNotFound() {
    when(keyLookup.find(any())).thenReturn(Optional.empty());
    navigate(KeyLookupView.class);
    _setValue(_get(TextField.class, s -> s.withId("key-tenant-field")), "bob");
    _setValue(_get(ComboBox.class, s -> s.withId("key-operation-field")), "orders.create");
    _setValue(_get(TextField.class, s -> s.withId("key-field")), "nope");

    _click(_get(Button.class, s -> s.withId("lookup-button")));

    verify(keyLookup).find(new KeyRef("bob", "orders.create", "nope"));
    assertThat(_get(Span.class, s -> s.withId("key-not-found")).getText())
        .isEqualTo("Not found: no such key for this tenant and operation.");
    assertThat(_find(Span.class, s -> s.withId("key-status"))).isEmpty();
  }

  @Test
  void keyLookupNeedsAllThreeFields() {
    navigate(KeyLookupView.class);
    _setValue(_get(TextField.class, s -> s.withId("key-field")), "k-1");

    _click(_get(Button.class, s -> s.withId("lookup-button")));

    verify(keyLookup, never()).find(any());
    assertThat(notificationTexts()).anyMatch(t -> t.contains("all needed"));
  }

  // --- Retention

  private static RetentionSummary retentionSummary(int purgeRuns) {
    List<PurgeRunView> runs = new ArrayList<>();
    for (int i = 0; i < purgeRuns; i++) {
      runs.add(new PurgeRunView(NOW.minus(Duration.ofMinutes(i)), "node-1", "operator", 12, 35));
    }
    return new RetentionSummary(
        Map.of("payments.charge", Duration.ofHours(24), "orders.create", Duration.ofHours(24)),
        List.of(new AgeBucketCount("payments.charge", "COMPLETED", "1-24 h", 17)),
        // From the clock at the call, not the class's NOW: the view measures the age when it
        // renders, and a run that reached this test a minute after the class loaded read "3 h 1
        // min".
        Map.of("COMPLETED", java.time.Instant.now().minus(Duration.ofHours(3))),
        OptionalLong.empty(),
        runs);
  }

  @Test
  @SuppressWarnings("unchecked")
  void retentionShowsTtlRowsOldestSizeAndPurgeRuns() {
    when(retention.summary()).thenReturn(retentionSummary(1));
    navigate(RetentionView.class);

    Grid<RetentionView.NameValue> ttl = _get(Grid.class, s -> s.withId("ttl-grid"));
    assertThat(GridKt._getFormattedRow(ttl, 0)).containsExactly("orders.create", "1 d 0 h");
    Grid<AgeBucketCount> rows = _get(Grid.class, s -> s.withId("rows-grid"));
    assertThat(GridKt._getFormattedRow(rows, 0))
        .containsExactly("payments.charge", "COMPLETED", "1-24 h", "17");
    Grid<RetentionView.NameValue> oldest = _get(Grid.class, s -> s.withId("oldest-grid"));
    assertThat(GridKt._getFormattedRow(oldest, 0).get(1)).contains("3 h 0 min ago");
    assertThat(_get(Span.class, s -> s.withId("table-size")).getText())
        .isEqualTo("Table size: not reported by this database");
    Grid<PurgeRunView> purges = _get(Grid.class, s -> s.withId("purge-grid"));
    assertThat(GridKt._getFormattedRow(purges, 0))
        .contains("node-1", "operator", "12", "Deleted in batches", "35 ms");
  }

  @Test
  @SuppressWarnings("unchecked")
  void retentionSaysWhenARunDroppedWholePartitions() {
    RetentionSummary one = retentionSummary(0);
    when(retention.summary())
        .thenReturn(
            new RetentionSummary(
                one.ttlPerOperation(),
                one.rowsByStatusAndAge(),
                one.oldestPerStatus(),
                one.tableSizeBytes(),
                List.of(
                    new PurgeRunView(NOW, "node-1", "schedule", 1_000_012, 40, "PARTITIONS", 1))));
    navigate(RetentionView.class);

    Grid<PurgeRunView> purges = _get(Grid.class, s -> s.withId("purge-grid"));
    assertThat(GridKt._getFormattedRow(purges, 0))
        .contains("1000012", "Partitions dropped: 1, the rest in batches");
  }

  @Test
  @SuppressWarnings("unchecked")
  void purgeNowRunsThePurgeShowsTheResultAndRefreshes() {
    when(retention.summary()).thenReturn(retentionSummary(0), retentionSummary(1));
    when(actions.purgeNow("operator")).thenReturn(ActionResult.done("purged 12 rows"));
    navigate(RetentionView.class);
    Grid<PurgeRunView> purges = _get(Grid.class, s -> s.withId("purge-grid"));
    assertThat(GridKt._size(purges)).isZero();

    _click(_get(Button.class, s -> s.withId("purge-button")));
    // Nothing is deleted before the operator confirms.
    verify(actions, org.mockito.Mockito.never()).purgeNow(org.mockito.ArgumentMatchers.any());
    _click(_get(Button.class, s -> s.withId("purge-confirm-button")));

    verify(actions).purgeNow("operator");
    assertThat(notificationTexts()).contains("DONE: purged 12 rows");
    assertThat(GridKt._size(purges)).isEqualTo(1);
  }

  @Test
  void cancellingThePurgeConfirmationDeletesNothing() {
    when(retention.summary()).thenReturn(retentionSummary(0));
    navigate(RetentionView.class);

    _click(_get(Button.class, s -> s.withId("purge-button")));
    _click(_get(Button.class, s -> s.withId("purge-cancel-button")));

    verify(actions, org.mockito.Mockito.never()).purgeNow(org.mockito.ArgumentMatchers.any());
  }

  @Test
  @SuppressWarnings("unchecked")
  void resealBodiesRunsTheReseal_thenShowsTheRunAndWhatRemains() {
    when(retention.summary()).thenReturn(retentionSummary(0));
    when(retention.bodyKeys())
        .thenReturn(
            new BodyKeysSummary(12, List.of()),
            new BodyKeysSummary(
                0,
                List.of(
                    new BodyKeysSummary.ResealRunView(
                        NOW, "node-1", "operator", "k1", "k2", 12, 0, "COMPLETE", null, 40))));
    when(actions.resealBodies("operator")).thenReturn(ActionResult.done("re-sealed 12"));
    navigate(RetentionView.class);
    assertThat(_get(Span.class, s -> s.withId("old-key-rows")).getText())
        .isEqualTo("Rows sealed with an old body key: 12 (keep the old keys until this is 0)");

    _click(_get(Button.class, s -> s.withId("reseal-button")));

    verify(actions).resealBodies("operator");
    assertThat(notificationTexts()).contains("DONE: re-sealed 12");
    Grid<BodyKeysSummary.ResealRunView> reseals = _get(Grid.class, s -> s.withId("reseal-grid"));
    assertThat(GridKt._getFormattedRow(reseals, 0))
        .contains("node-1", "operator", "k1", "k2", "12", "COMPLETE", "40 ms");
    assertThat(_get(Span.class, s -> s.withId("old-key-rows")).getText())
        .isEqualTo("Rows sealed with an old body key: 0 (no old key is needed)");
  }

  @Test
  void aReportedTableSizeIsShown() {
    RetentionSummary base = retentionSummary(0);
    when(retention.summary())
        .thenReturn(
            new RetentionSummary(
                base.ttlPerOperation(),
                base.rowsByStatusAndAge(),
                base.oldestPerStatus(),
                OptionalLong.of(3 * 1024 * 1024),
                base.lastPurgeRuns()));
    navigate(RetentionView.class);

    assertThat(_get(Span.class, s -> s.withId("table-size")).getText())
        .isEqualTo("Table size: 3.0 MiB");
  }

  // --- Audit

  private static AuditEntry entry(long id, String action) {
    return new AuditEntry(
        id,
        NOW.minus(Duration.ofMinutes(id)),
        "operator",
        action,
        "alice",
        "payments.charge",
        "k-" + id,
        "customer called",
        "DONE",
        "detail " + id);
  }

  @Test
  @SuppressWarnings("unchecked")
  void theAuditListsEntriesNewestFirstFromTheService() {
    when(audit.count(null)).thenReturn(2);
    when(audit.page(eq(null), anyInt(), anyInt()))
        .thenAnswer(paged(List.of(entry(1, "RESOLVE_AS_CHARGED"), entry(2, "RECONCILE"))));
    navigate(AuditView.class);

    Grid<AuditEntry> grid = _get(Grid.class, s -> s.withId("audit-grid"));
    assertThat(GridKt._size(grid)).isEqualTo(2);
    assertThat(GridKt._getFormattedRow(grid, 0))
        .containsSequence(
            "operator",
            "RESOLVE_AS_CHARGED",
            "alice",
            "payments.charge",
            "k-1",
            "customer called",
            "DONE",
            "detail 1");
    assertThat(GridKt._get(grid, 1).action()).isEqualTo("RECONCILE");
  }

  @Test
  @SuppressWarnings("unchecked")
  void theAuditSearchAsksTheServiceForTheText() {
    when(audit.count(any())).thenReturn(0);
    when(audit.count("purge")).thenReturn(1);
    when(audit.page(eq("purge"), anyInt(), anyInt()))
        .thenAnswer(
            paged(
                List.of(
                    new AuditEntry(
                        9, NOW, "operator", "PURGE", null, null, null, null, "DONE", ""))));
    navigate(AuditView.class);
    Grid<AuditEntry> grid = _get(Grid.class, s -> s.withId("audit-grid"));
    assertThat(GridKt._size(grid)).isZero();

    _setValue(_get(TextField.class, s -> s.withId("audit-search-field")), "purge");
    _click(_get(Button.class, s -> s.withId("audit-search-button")));

    assertThat(GridKt._size(grid)).isEqualTo(1);
    assertThat(GridKt._getFormattedRow(grid, 0)).contains("PURGE", "—");
    verify(audit, atLeastOnce()).page(eq("purge"), eq(0), anyInt());
  }

  @Test
  void theOverviewRefreshesItselfUntilPaused() {
    when(overview.snapshot()).thenReturn(snapshot(1));
    navigate(OverviewView.class);
    com.vaadin.flow.component.UI ui = com.vaadin.flow.component.UI.getCurrent();
    assertThat(ui.getPollInterval()).isEqualTo(AutoRefresh.INTERVAL_SECONDS * 1000);
    org.mockito.Mockito.clearInvocations(overview);

    com.vaadin.flow.component.ComponentUtil.fireEvent(
        ui, new com.vaadin.flow.component.PollEvent(ui, true));
    verify(overview, org.mockito.Mockito.atLeastOnce()).snapshot();

    _setValue(
        _get(
            com.vaadin.flow.component.checkbox.Checkbox.class,
            s -> s.withId("overview-auto-refresh")),
        false);
    assertThat(ui.getPollInterval()).isEqualTo(-1);
    org.mockito.Mockito.clearInvocations(overview);
    com.vaadin.flow.component.ComponentUtil.fireEvent(
        ui, new com.vaadin.flow.component.PollEvent(ui, true));
    verify(overview, org.mockito.Mockito.never()).snapshot();
  }
}
