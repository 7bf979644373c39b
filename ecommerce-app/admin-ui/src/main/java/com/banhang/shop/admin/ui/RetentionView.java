package com.banhang.shop.admin.ui;

import com.banhang.shop.admin.application.BodyKeysSummary;
import com.banhang.shop.admin.application.BodyKeysSummary.ResealRunView;
import com.banhang.shop.admin.application.OperatorActions;
import com.banhang.shop.admin.application.RetentionReport;
import com.banhang.shop.admin.application.RetentionSummary;
import com.banhang.shop.admin.application.RetentionSummary.AgeBucketCount;
import com.banhang.shop.admin.application.RetentionSummary.PurgeRunView;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.grid.GridVariant;
import com.vaadin.flow.component.html.H2;
import com.vaadin.flow.component.html.H3;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.orderedlayout.FlexComponent;
import com.vaadin.flow.component.orderedlayout.HorizontalLayout;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.router.PageTitle;
import com.vaadin.flow.router.Route;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** How long keys are kept, how many there are, and the purge runs. */
@Route(value = "retention", layout = MainLayout.class)
@PageTitle("Retention | BanHang operator console")
public class RetentionView extends VerticalLayout {

  static final String SIZE_NOT_REPORTED = "not reported by this database";

  record NameValue(String name, String value) {}

  private final RetentionReport report;
  private final OperatorActions actions;
  final Grid<NameValue> ttl = new Grid<>();
  final Grid<AgeBucketCount> rows = new Grid<>();
  final Grid<NameValue> oldest = new Grid<>();
  final Span tableSize = new Span();
  final Grid<PurgeRunView> purges = new Grid<>();
  final Span oldKeyRows = new Span();
  final Grid<ResealRunView> reseals = new Grid<>();

  @Inject
  public RetentionView(RetentionReport report, OperatorActions actions) {
    this.report = report;
    this.actions = actions;
    setWidthFull();

    Button purge = new Button("Purge now", e -> purgeNow());
    purge.setId("purge-button");
    purge.addThemeVariants(ButtonVariant.LUMO_PRIMARY);
    Button refresh = new Button("Refresh", e -> refresh());
    refresh.setId("refresh-button");
    Button reseal = new Button("Re-seal bodies", e -> resealBodies());
    reseal.setId("reseal-button");
    HorizontalLayout header = new HorizontalLayout(new H2("Retention"), refresh, purge, reseal);
    header.setAlignItems(FlexComponent.Alignment.BASELINE);

    ttl.setId("ttl-grid");
    nameValueGrid(ttl, "Operation", "Kept for");
    oldest.setId("oldest-grid");
    nameValueGrid(oldest, "Status", "Oldest row");

    rows.setId("rows-grid");
    rows.addThemeVariants(GridVariant.LUMO_COMPACT);
    rows.setAllRowsVisible(true);
    rows.addColumn(AgeBucketCount::operation).setHeader("Operation").setAutoWidth(true);
    rows.addColumn(AgeBucketCount::status).setHeader("Status").setAutoWidth(true);
    rows.addColumn(AgeBucketCount::ageBucket).setHeader("Age").setAutoWidth(true);
    rows.addColumn(AgeBucketCount::rows).setHeader("Rows");

    tableSize.setId("table-size");

    purges.setId("purge-grid");
    purges.addThemeVariants(GridVariant.LUMO_COMPACT);
    purges.setAllRowsVisible(true);
    purges
        .addColumn(p -> Formats.instant(p.startedAt()))
        .setTooltipGenerator(p -> Formats.utc(p.startedAt()))
        .setHeader("Started")
        .setAutoWidth(true);
    purges.addColumn(PurgeRunView::node).setHeader("Node").setAutoWidth(true);
    purges.addColumn(PurgeRunView::startedBy).setHeader("Started by").setAutoWidth(true);
    purges.addColumn(PurgeRunView::rowsDeleted).setHeader("Rows deleted");
    purges.addColumn(p -> p.durationMillis() + " ms").setHeader("Duration");

    oldKeyRows.setId("old-key-rows");
    reseals.setId("reseal-grid");
    reseals.addThemeVariants(GridVariant.LUMO_COMPACT);
    reseals.setAllRowsVisible(true);
    reseals
        .addColumn(r -> Formats.instant(r.startedAt()))
        .setTooltipGenerator(r -> Formats.utc(r.startedAt()))
        .setHeader("Started")
        .setAutoWidth(true);
    reseals.addColumn(ResealRunView::node).setHeader("Node").setAutoWidth(true);
    reseals.addColumn(ResealRunView::startedBy).setHeader("Started by").setAutoWidth(true);
    reseals.addColumn(ResealRunView::fromKeyIds).setHeader("From keys").setAutoWidth(true);
    reseals.addColumn(ResealRunView::toKeyId).setHeader("To key").setAutoWidth(true);
    reseals.addColumn(ResealRunView::rowsResealed).setHeader("Rows re-sealed");
    reseals.addColumn(ResealRunView::rowsRemaining).setHeader("Remaining");
    reseals.addColumn(ResealRunView::status).setHeader("Status");
    reseals
        .addColumn(r -> r.detail() == null ? "" : r.detail())
        .setHeader("Detail")
        .setAutoWidth(true);
    reseals.addColumn(r -> r.durationMillis() + " ms").setHeader("Duration");

    add(
        header,
        new H3("Time to live per operation"),
        ttl,
        new H3("Rows by status and age"),
        rows,
        new H3("Oldest row per status"),
        oldest,
        tableSize,
        new H3("Last purge runs"),
        purges,
        new H3("Stored bodies' keys"),
        oldKeyRows,
        reseals);
    refresh();
  }

  private static void nameValueGrid(Grid<NameValue> grid, String name, String value) {
    grid.addThemeVariants(GridVariant.LUMO_COMPACT);
    grid.setAllRowsVisible(true);
    grid.addColumn(NameValue::name).setHeader(name).setAutoWidth(true);
    grid.addColumn(NameValue::value).setHeader(value).setAutoWidth(true);
  }

  void refresh() {
    Notices.call("Retention report", report::summary)
        .ifPresentOrElse(
            this::show,
            () -> {
              ttl.setItems(List.of());
              rows.setItems(List.of());
              oldest.setItems(List.of());
              purges.setItems(List.of());
              tableSize.setText("Table size: " + Formats.NONE);
            });
    Notices.call("Body keys", report::bodyKeys)
        .ifPresentOrElse(
            this::showBodyKeys,
            () -> {
              reseals.setItems(List.of());
              oldKeyRows.setText(OLD_KEY_ROWS + Formats.NONE);
            });
  }

  static final String OLD_KEY_ROWS = "Rows sealed with an old body key: ";

  /** An old key may leave the configuration only once no row needs it (docs/configuration.md). */
  private void showBodyKeys(BodyKeysSummary summary) {
    if (summary == null) {
      return;
    }
    oldKeyRows.setText(
        OLD_KEY_ROWS
            + summary.rowsWithOldKeys()
            + (summary.rowsWithOldKeys() == 0
                ? " (no old key is needed)"
                : " (keep the old keys until this is 0)"));
    reseals.setItems(summary.lastResealRuns() == null ? List.of() : summary.lastResealRuns());
  }

  void resealBodies() {
    Notices.call("Re-seal", () -> actions.resealBodies(OperatorSession.currentName()))
        .ifPresent(Notices::result);
    refresh();
  }

  private void show(RetentionSummary summary) {
    Instant now = Instant.now();
    ttl.setItems(
        entries(summary.ttlPerOperation()).stream()
            .map(e -> new NameValue(e.getKey(), Formats.age(e.getValue())))
            .toList());
    rows.setItems(summary.rowsByStatusAndAge() == null ? List.of() : summary.rowsByStatusAndAge());
    oldest.setItems(
        entries(summary.oldestPerStatus()).stream()
            .map(
                e ->
                    new NameValue(
                        e.getKey(),
                        Formats.instant(e.getValue())
                            + " ("
                            + Formats.ageSince(e.getValue(), now)
                            + " ago)"))
            .toList());
    tableSize.setText(
        "Table size: "
            + (summary.tableSizeBytes() != null && summary.tableSizeBytes().isPresent()
                ? bytes(summary.tableSizeBytes().getAsLong())
                : SIZE_NOT_REPORTED));
    purges.setItems(summary.lastPurgeRuns() == null ? List.of() : summary.lastPurgeRuns());
  }

  private static <V> List<Map.Entry<String, V>> entries(Map<String, V> map) {
    return map == null
        ? List.of()
        : map.entrySet().stream().sorted(Map.Entry.comparingByKey()).toList();
  }

  static String bytes(long bytes) {
    if (bytes < 1024) {
      return bytes + " B";
    }
    if (bytes < 1024 * 1024) {
      return String.format(java.util.Locale.ROOT, "%.1f KiB", bytes / 1024.0);
    }
    return String.format(java.util.Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024));
  }

  /** Deleting is not undone: the purge runs only after a confirmation that says what it deletes. */
  void purgeNow() {
    com.vaadin.flow.component.confirmdialog.ConfirmDialog confirm =
        new com.vaadin.flow.component.confirmdialog.ConfirmDialog();
    confirm.setId("purge-confirm-dialog");
    confirm.setHeader("Purge expired keys now?");
    confirm.setText(
        "Completed and released keys past their expiry are deleted on this node, in batches; a"
            + " customer's retry with one of them then runs as new. Processing keys are never"
            + " deleted. This cannot be undone.");
    Button yes = new Button("Purge now", e -> confirm.close());
    yes.setId("purge-confirm-button");
    yes.addThemeVariants(ButtonVariant.LUMO_ERROR, ButtonVariant.LUMO_PRIMARY);
    confirm.setConfirmButton(yes);
    confirm.setCancelable(true);
    Button no = new Button("Cancel", e -> confirm.close());
    no.setId("purge-cancel-button");
    confirm.setCancelButton(no);
    yes.addClickListener(e -> purgeConfirmed());
    confirm.open();
  }

  private void purgeConfirmed() {
    Notices.call("Purge", () -> actions.purgeNow(OperatorSession.currentName()))
        .ifPresent(Notices::result);
    refresh();
  }
}
