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
import com.vaadin.flow.router.HasDynamicTitle;
import com.vaadin.flow.router.Route;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** How long keys are kept, how many there are, and the purge runs. */
@Route(value = "retention", layout = MainLayout.class)
public class RetentionView extends VerticalLayout implements HasDynamicTitle {

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

    Button purge = new Button(Texts.t("retention.purge"), e -> purgeNow());
    purge.setId("purge-button");
    purge.addThemeVariants(ButtonVariant.LUMO_PRIMARY);
    Button refresh = new Button(Texts.t("retention.refresh"), e -> refresh());
    refresh.setId("refresh-button");
    Button reseal = new Button(Texts.t("retention.reseal"), e -> resealBodies());
    reseal.setId("reseal-button");
    HorizontalLayout header =
        new HorizontalLayout(new H2(Texts.t("retention.title")), refresh, purge, reseal);
    header.setAlignItems(FlexComponent.Alignment.BASELINE);

    ttl.setId("ttl-grid");
    nameValueGrid(ttl, Texts.t("retention.column.operation"), Texts.t("retention.column.kept-for"));
    oldest.setId("oldest-grid");
    nameValueGrid(oldest, Texts.t("retention.column.status"), Texts.t("retention.column.oldest"));

    rows.setId("rows-grid");
    rows.addThemeVariants(GridVariant.LUMO_COMPACT);
    rows.setAllRowsVisible(true);
    rows.addColumn(AgeBucketCount::operation)
        .setHeader(Texts.t("retention.column.operation"))
        .setAutoWidth(true);
    rows.addColumn(AgeBucketCount::status)
        .setHeader(Texts.t("retention.column.status"))
        .setAutoWidth(true);
    rows.addColumn(AgeBucketCount::ageBucket)
        .setHeader(Texts.t("retention.column.age"))
        .setAutoWidth(true);
    rows.addColumn(AgeBucketCount::rows).setHeader(Texts.t("retention.column.rows"));

    tableSize.setId("table-size");

    purges.setId("purge-grid");
    purges.addThemeVariants(GridVariant.LUMO_COMPACT);
    purges.setAllRowsVisible(true);
    purges
        .addColumn(p -> Formats.instant(p.startedAt()))
        .setTooltipGenerator(p -> Formats.utc(p.startedAt()))
        .setHeader(Texts.t("retention.column.started"))
        .setAutoWidth(true);
    purges
        .addColumn(PurgeRunView::node)
        .setHeader(Texts.t("retention.column.node"))
        .setAutoWidth(true);
    purges
        .addColumn(PurgeRunView::startedBy)
        .setHeader(Texts.t("retention.column.started-by"))
        .setAutoWidth(true);
    purges.addColumn(PurgeRunView::rowsDeleted).setHeader(Texts.t("retention.column.rows-deleted"));
    purges
        .addColumn(RetentionView::how)
        .setHeader(Texts.t("retention.column.method"))
        .setAutoWidth(true);
    purges
        .addColumn(p -> Texts.t("retention.duration-ms", p.durationMillis()))
        .setHeader(Texts.t("retention.column.duration"));

    oldKeyRows.setId("old-key-rows");
    reseals.setId("reseal-grid");
    reseals.addThemeVariants(GridVariant.LUMO_COMPACT);
    reseals.setAllRowsVisible(true);
    reseals
        .addColumn(r -> Formats.instant(r.startedAt()))
        .setTooltipGenerator(r -> Formats.utc(r.startedAt()))
        .setHeader(Texts.t("retention.column.started"))
        .setAutoWidth(true);
    reseals
        .addColumn(ResealRunView::node)
        .setHeader(Texts.t("retention.column.node"))
        .setAutoWidth(true);
    reseals
        .addColumn(ResealRunView::startedBy)
        .setHeader(Texts.t("retention.column.started-by"))
        .setAutoWidth(true);
    reseals
        .addColumn(ResealRunView::fromKeyIds)
        .setHeader(Texts.t("retention.column.from-keys"))
        .setAutoWidth(true);
    reseals
        .addColumn(ResealRunView::toKeyId)
        .setHeader(Texts.t("retention.column.to-key"))
        .setAutoWidth(true);
    reseals
        .addColumn(ResealRunView::rowsResealed)
        .setHeader(Texts.t("retention.column.rows-resealed"));
    reseals
        .addColumn(ResealRunView::rowsRemaining)
        .setHeader(Texts.t("retention.column.remaining"));
    reseals.addColumn(ResealRunView::status).setHeader(Texts.t("retention.column.status"));
    reseals
        .addColumn(r -> r.detail() == null ? "" : r.detail())
        .setHeader(Texts.t("retention.column.detail"))
        .setAutoWidth(true);
    reseals
        .addColumn(r -> Texts.t("retention.duration-ms", r.durationMillis()))
        .setHeader(Texts.t("retention.column.duration"));

    add(
        header,
        new H3(Texts.t("retention.ttl")),
        ttl,
        new H3(Texts.t("retention.rows")),
        rows,
        new H3(Texts.t("retention.oldest")),
        oldest,
        tableSize,
        new H3(Texts.t("retention.purges")),
        purges,
        new H3(Texts.t("retention.body-keys")),
        oldKeyRows,
        reseals);
    refresh();
  }

  @Override
  public String getPageTitle() {
    return Texts.title("retention.title");
  }

  private static void nameValueGrid(Grid<NameValue> grid, String name, String value) {
    grid.addThemeVariants(GridVariant.LUMO_COMPACT);
    grid.setAllRowsVisible(true);
    grid.addColumn(NameValue::name).setHeader(name).setAutoWidth(true);
    grid.addColumn(NameValue::value).setHeader(value).setAutoWidth(true);
  }

  void refresh() {
    Notices.call(Texts.t("retention.reading"), report::summary)
        .ifPresentOrElse(
            this::show,
            () -> {
              ttl.setItems(List.of());
              rows.setItems(List.of());
              oldest.setItems(List.of());
              purges.setItems(List.of());
              tableSize.setText(Texts.t("retention.table-size", Formats.NONE));
            });
    Notices.call(Texts.t("retention.reading-body-keys"), report::bodyKeys)
        .ifPresentOrElse(
            this::showBodyKeys,
            () -> {
              reseals.setItems(List.of());
              oldKeyRows.setText(Texts.t("retention.old-key-rows", Formats.NONE));
            });
  }

  /** An old key may leave the configuration only once no row needs it (docs/configuration.md). */
  private void showBodyKeys(BodyKeysSummary summary) {
    if (summary == null) {
      return;
    }
    oldKeyRows.setText(
        Texts.t(
            summary.rowsWithOldKeys() == 0
                ? "retention.old-key-rows.none"
                : "retention.old-key-rows.some",
            summary.rowsWithOldKeys()));
    reseals.setItems(summary.lastResealRuns() == null ? List.of() : summary.lastResealRuns());
  }

  void resealBodies() {
    Notices.call(
            Texts.t("retention.resealing"),
            () -> actions.resealBodies(OperatorSession.currentName()))
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
                        Texts.t(
                            "retention.oldest.value",
                            Formats.instant(e.getValue()),
                            Formats.ageSince(e.getValue(), now))))
            .toList());
    tableSize.setText(
        Texts.t(
            "retention.table-size",
            summary.tableSizeBytes() != null && summary.tableSizeBytes().isPresent()
                ? bytes(summary.tableSizeBytes().getAsLong())
                : Texts.t("retention.table-size.not-reported")));
    purges.setItems(summary.lastPurgeRuns() == null ? List.of() : summary.lastPurgeRuns());
  }

  private static <V> List<Map.Entry<String, V>> entries(Map<String, V> map) {
    return map == null
        ? List.of()
        : map.entrySet().stream().sorted(Map.Entry.comparingByKey()).toList();
  }

  static String bytes(long bytes) {
    if (bytes < 1024) {
      return Texts.t("retention.bytes", bytes);
    }
    // The number is written here, one decimal as before; the bundle only names the unit.
    if (bytes < 1024 * 1024) {
      return Texts.t("retention.kib", String.format(java.util.Locale.ROOT, "%.1f", bytes / 1024.0));
    }
    return Texts.t(
        "retention.mib", String.format(java.util.Locale.ROOT, "%.1f", bytes / (1024.0 * 1024)));
  }

  /** Deleting is not undone: the purge runs only after a confirmation that says what it deletes. */
  void purgeNow() {
    com.vaadin.flow.component.confirmdialog.ConfirmDialog confirm =
        new com.vaadin.flow.component.confirmdialog.ConfirmDialog();
    confirm.setId("purge-confirm-dialog");
    confirm.setHeader(Texts.t("retention.purge.header"));
    confirm.setText(Texts.t("retention.purge.text"));
    Button yes = new Button(Texts.t("retention.purge"), e -> confirm.close());
    yes.setId("purge-confirm-button");
    yes.addThemeVariants(ButtonVariant.LUMO_ERROR, ButtonVariant.LUMO_PRIMARY);
    confirm.setConfirmButton(yes);
    confirm.setCancelable(true);
    Button no = new Button(Texts.t("dialog.cancel"), e -> confirm.close());
    no.setId("purge-cancel-button");
    confirm.setCancelButton(no);
    yes.addClickListener(e -> purgeConfirmed());
    confirm.open();
  }

  private void purgeConfirmed() {
    Notices.call(
            Texts.t("retention.purging"), () -> actions.purgeNow(OperatorSession.currentName()))
        .ifPresent(Notices::result);
    refresh();
  }

  /** How a run removed its rows: in batches, or with whole expired partitions dropped. */
  static String how(PurgeRunView run) {
    return "PARTITIONS".equals(run.method())
        ? Texts.t("retention.method.partitions", run.partitionsDropped())
        : Texts.t("retention.method.batched");
  }
}
