package com.banhang.shop.admin.ui;

import com.banhang.shop.admin.application.ChartRange;
import com.banhang.shop.admin.application.OperationsOverview;
import com.banhang.shop.admin.application.OverviewCharts;
import com.banhang.shop.admin.application.OverviewSnapshot;
import com.banhang.shop.admin.application.OverviewSnapshot.OperationCounts;
import com.banhang.shop.admin.application.SignalChart;
import com.vaadin.flow.component.Html;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.grid.GridVariant;
import com.vaadin.flow.component.html.Div;
import com.vaadin.flow.component.html.H2;
import com.vaadin.flow.component.html.H3;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.orderedlayout.FlexComponent;
import com.vaadin.flow.component.orderedlayout.HorizontalLayout;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.component.radiobutton.RadioButtonGroup;
import com.vaadin.flow.router.HasDynamicTitle;
import com.vaadin.flow.router.Route;
import com.vaadin.flow.router.RouteAlias;
import com.vaadin.flow.theme.lumo.LumoUtility;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * What matters at night, charted from every node's minutes in the database over the last 1, 6 or 24
 * hours; what the idempotency layer of this node did in the last hour; what is left processing.
 */
@Route(value = "", layout = MainLayout.class)
@RouteAlias(value = "overview", layout = MainLayout.class)
public class OverviewView extends VerticalLayout implements HasDynamicTitle {

  /** One row of a small name/value table. */
  record Row(String group, String name, String value) {}

  private final OperationsOverview overview;
  private final Span takenAt = new Span();
  private final Grid<OperationCounts> operations = new Grid<>();
  private final Grid<Row> processing = new Grid<>();
  private final Grid<Row> reconciliation = new Grid<>();
  private final Span gatewayErrors = new Span();
  private final Span lateCharges = new Span();
  private final Span gatewayEvents = new Span();
  private final Div chart = new Div();
  private final RadioButtonGroup<ChartRange> range = new RadioButtonGroup<>();
  private final Span chartsNote = new Span();
  private final Div charts = new Div();

  @Inject
  public OverviewView(OperationsOverview overview) {
    this.overview = overview;
    setWidthFull();

    Button refresh = new Button(Texts.t("overview.refresh"), e -> refresh());
    refresh.setId("refresh-button");
    refresh.addThemeVariants(ButtonVariant.LUMO_PRIMARY);
    takenAt.setId("overview-taken-at");
    takenAt.addClassNames(LumoUtility.TextColor.SECONDARY);
    HorizontalLayout header =
        new HorizontalLayout(
            new H2(Texts.t("overview.title")),
            refresh,
            new AutoRefresh("overview-auto-refresh", this::refresh),
            takenAt);
    header.setAlignItems(FlexComponent.Alignment.BASELINE);

    operations.setId("overview-operations");
    operations.addThemeVariants(GridVariant.LUMO_COMPACT, GridVariant.LUMO_ROW_STRIPES);
    operations.setAllRowsVisible(true);
    operations
        .addColumn(OperationCounts::operation)
        .setHeader(Texts.t("overview.column.operation"))
        .setAutoWidth(true);
    operations.addColumn(OperationCounts::total).setHeader(Texts.t("overview.column.requests"));
    countColumn(Texts.t("overview.column.new"), OperationCounts::newKeys);
    countColumn(Texts.t("overview.column.replayed"), OperationCounts::replayed);
    countColumn(Texts.t("overview.column.in-progress"), OperationCounts::inProgress);
    countColumn(Texts.t("overview.column.mismatch"), OperationCounts::mismatch);
    countColumn(Texts.t("overview.column.rejected"), OperationCounts::rejected);
    countColumn(Texts.t("overview.column.unknown-outcome"), OperationCounts::unknownOutcome);

    processing.setId("overview-processing");
    rowGrid(processing, Texts.t("overview.column.operation"), Texts.t("overview.column.what"));
    reconciliation.setId("overview-reconciliation");
    rowGrid(reconciliation, Texts.t("overview.column.finding"), "");
    reconciliation.removeColumnByKey("name");
    gatewayErrors.setId("overview-gateway-errors");
    lateCharges.setId("overview-late-charges");
    gatewayEvents.setId("overview-gateway-events");
    chart.setId("overview-chart-box");
    chart.setWidthFull();
    chart.getStyle().set("overflow-x", "auto");

    range.setId("overview-range");
    range.setLabel(Texts.t("overview.range"));
    range.setItems(ChartRange.values());
    range.setItemLabelGenerator(OverviewView::rangeLabel);
    range.setValue(ChartRange.LAST_HOUR);
    range.addValueChangeListener(
        e -> {
          if (e.getValue() != null) {
            refreshCharts();
          }
        });
    chartsNote.setId("overview-charts-note");
    chartsNote.addClassNames(LumoUtility.TextColor.SECONDARY);
    charts.setId("overview-charts");
    charts.setWidthFull();
    charts.getStyle().set("overflow-x", "auto");

    HorizontalLayout lower =
        new HorizontalLayout(
            section(Texts.t("overview.processing"), processing),
            section(Texts.t("overview.reconciliation"), reconciliation, gatewayErrors));
    lower.setWidthFull();

    HorizontalLayout chartsHeader =
        new HorizontalLayout(new H3(Texts.t("overview.charts")), range, chartsNote);
    chartsHeader.setAlignItems(FlexComponent.Alignment.BASELINE);

    add(
        header,
        lateCharges,
        gatewayEvents,
        chartsHeader,
        charts,
        new H3(Texts.t("overview.operations")),
        operations,
        new H3(Texts.t("overview.per-minute")),
        chart,
        lower);
    refresh();
  }

  @Override
  public String getPageTitle() {
    return Texts.title("overview.title");
  }

  /** A range as the switch and the note name it. */
  private static String rangeLabel(ChartRange range) {
    return switch (range) {
      case LAST_HOUR -> Texts.t("overview.range.1h");
      case LAST_6_HOURS -> Texts.t("overview.range.6h");
      case LAST_24_HOURS -> Texts.t("overview.range.24h");
    };
  }

  private void countColumn(String header, ToLongFunction<OperationCounts> count) {
    operations
        .addColumn(
            c -> count.applyAsLong(c) + " (" + Formats.rate(c.rate(count.applyAsLong(c))) + ")")
        .setHeader(header)
        .setAutoWidth(true);
  }

  private static void rowGrid(Grid<Row> grid, String groupHeader, String nameHeader) {
    grid.addThemeVariants(GridVariant.LUMO_COMPACT);
    grid.setAllRowsVisible(true);
    grid.addColumn(Row::group).setHeader(groupHeader).setKey("group").setAutoWidth(true);
    grid.addColumn(Row::name).setHeader(nameHeader).setKey("name").setAutoWidth(true);
    grid.addColumn(Row::value)
        .setHeader(Texts.t("overview.column.value"))
        .setKey("value")
        .setAutoWidth(true);
  }

  private static VerticalLayout section(String title, com.vaadin.flow.component.Component... body) {
    VerticalLayout section = new VerticalLayout(new H3(title));
    section.add(body);
    section.setPadding(false);
    section.setWidth("50%");
    return section;
  }

  /**
   * Takes a new snapshot and reads the charts of the chosen range; a failing service leaves its
   * part empty with an error notification.
   */
  void refresh() {
    Notices.call(Texts.t("overview.title"), overview::snapshot)
        .ifPresentOrElse(this::show, this::clear);
    refreshCharts();
  }

  /** Reads the charts of the chosen range; a failure leaves a note instead of the charts. */
  private void refreshCharts() {
    ChartRange chosen = range.getValue() == null ? ChartRange.LAST_HOUR : range.getValue();
    charts.removeAll();
    Notices.call(Texts.t("overview.charts.reading"), () -> overview.charts(chosen))
        .ifPresentOrElse(
            this::showCharts, () -> chartsNote.setText(Texts.t("overview.charts.unread")));
  }

  private void showCharts(OverviewCharts read) {
    chartsNote.setText(
        Texts.t(
            "overview.charts.note",
            rangeLabel(read.range()),
            Formats.utc(read.from()),
            Formats.utc(read.to()),
            read.range().bucket().toMinutes()));
    for (SignalChart signal : read.charts()) {
      Html svg = new Html("<div>" + SvgChart.render(signal) + "</div>");
      svg.setId("overview-chart-box-" + signal.signal().id());
      charts.add(svg);
    }
  }

  private void show(OverviewSnapshot snapshot) {
    takenAt.setText(Texts.t("overview.taken-at", Formats.instant(snapshot.takenAt())));
    operations.setItems(snapshot.operations() == null ? List.of() : snapshot.operations());
    processing.setItems(processingRows(snapshot));
    List<Row> findings = new ArrayList<>();
    nullSafe(snapshot.reconciliationFindings())
        .forEach((finding, count) -> findings.add(new Row(finding, "", Long.toString(count))));
    reconciliation.setItems(findings);
    gatewayErrors.setText(Texts.t("overview.gateway-errors", snapshot.gatewayErrors()));
    lateCharges.setText(
        Texts.t(
            snapshot.lateChargesNeedingOperator() > 0
                ? "overview.late-charges.some"
                : "overview.late-charges.none",
            snapshot.lateChargesNeedingOperator()));
    lateCharges.removeClassName(LumoUtility.TextColor.ERROR);
    if (snapshot.lateChargesNeedingOperator() > 0) {
      lateCharges.addClassName(LumoUtility.TextColor.ERROR);
    }
    long gatewayEventsWaiting = snapshot.gatewayEventsNeedingOperator();
    gatewayEvents.setText(
        Texts.t(
            gatewayEventsWaiting > 0
                ? "overview.gateway-events.some"
                : "overview.gateway-events.none",
            gatewayEventsWaiting,
            snapshot.gatewayEventsFlagged(),
            snapshot.gatewayEventsParked()));
    gatewayEvents.removeClassName(LumoUtility.TextColor.ERROR);
    if (gatewayEventsWaiting > 0) {
      gatewayEvents.addClassName(LumoUtility.TextColor.ERROR);
    }
    chart.removeAll();
    Html perMinute = new Html("<div>" + SvgChart.render(snapshot.perMinute()) + "</div>");
    perMinute.setId("overview-node-chart");
    chart.add(perMinute);
  }

  private static List<Row> processingRows(OverviewSnapshot snapshot) {
    List<Row> rows = new ArrayList<>();
    nullSafe(snapshot.processingByAge())
        .forEach(
            (operation, buckets) ->
                nullSafe(buckets)
                    .forEach(
                        (bucket, count) ->
                            rows.add(
                                new Row(
                                    operation,
                                    Texts.t("overview.row.age", bucket),
                                    Long.toString(count)))));
    nullSafe(snapshot.oldestProcessing())
        .forEach(
            (operation, oldest) ->
                rows.add(
                    new Row(
                        operation,
                        Texts.t("overview.row.oldest"),
                        Texts.t(
                            "overview.row.oldest.value",
                            Formats.instant(oldest),
                            Formats.ageSince(oldest, snapshot.takenAt())))));
    nullSafe(snapshot.expiredLeases())
        .forEach(
            (operation, count) ->
                rows.add(
                    new Row(operation, Texts.t("overview.row.expired"), Long.toString(count))));
    return rows;
  }

  private static <K, V> Map<K, V> nullSafe(Map<K, V> map) {
    return map == null ? Map.of() : map;
  }

  private void clear() {
    takenAt.setText(Texts.t("overview.unread"));
    operations.setItems(List.of());
    processing.setItems(List.of());
    reconciliation.setItems(List.of());
    gatewayErrors.setText("");
    lateCharges.setText("");
    gatewayEvents.setText("");
    chart.removeAll();
  }
}
