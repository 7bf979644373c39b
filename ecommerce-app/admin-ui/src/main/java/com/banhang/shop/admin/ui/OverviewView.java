package com.banhang.shop.admin.ui;

import com.banhang.shop.admin.application.OperationsOverview;
import com.banhang.shop.admin.application.OverviewSnapshot;
import com.banhang.shop.admin.application.OverviewSnapshot.OperationCounts;
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
import com.vaadin.flow.router.PageTitle;
import com.vaadin.flow.router.Route;
import com.vaadin.flow.router.RouteAlias;
import com.vaadin.flow.theme.lumo.LumoUtility;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

/** What the idempotency layer did in the last hour, and what is left processing. */
@Route(value = "", layout = MainLayout.class)
@RouteAlias(value = "overview", layout = MainLayout.class)
@PageTitle("Overview | BanHang operator console")
public class OverviewView extends VerticalLayout {

  /** One row of a small name/value table. */
  record Row(String group, String name, String value) {}

  private final OperationsOverview overview;
  private final Span takenAt = new Span();
  private final Grid<OperationCounts> operations = new Grid<>();
  private final Grid<Row> processing = new Grid<>();
  private final Grid<Row> reconciliation = new Grid<>();
  private final Span gatewayErrors = new Span();
  private final Span lateCharges = new Span();
  private final Div chart = new Div();

  @Inject
  public OverviewView(OperationsOverview overview) {
    this.overview = overview;
    setWidthFull();

    Button refresh = new Button("Refresh", e -> refresh());
    refresh.setId("refresh-button");
    refresh.addThemeVariants(ButtonVariant.LUMO_PRIMARY);
    takenAt.setId("overview-taken-at");
    takenAt.addClassNames(LumoUtility.TextColor.SECONDARY);
    HorizontalLayout header =
        new HorizontalLayout(
            new H2("Overview"),
            refresh,
            new AutoRefresh("overview-auto-refresh", this::refresh),
            takenAt);
    header.setAlignItems(FlexComponent.Alignment.BASELINE);

    operations.setId("overview-operations");
    operations.addThemeVariants(GridVariant.LUMO_COMPACT, GridVariant.LUMO_ROW_STRIPES);
    operations.setAllRowsVisible(true);
    operations.addColumn(OperationCounts::operation).setHeader("Operation").setAutoWidth(true);
    operations.addColumn(OperationCounts::total).setHeader("Requests");
    countColumn("New", OperationCounts::newKeys);
    countColumn("Replayed", OperationCounts::replayed);
    countColumn("In progress (409)", OperationCounts::inProgress);
    countColumn("Mismatch (422)", OperationCounts::mismatch);
    countColumn("Rejected", OperationCounts::rejected);
    countColumn("Unknown outcome", OperationCounts::unknownOutcome);

    processing.setId("overview-processing");
    rowGrid(processing, "Operation", "What");
    reconciliation.setId("overview-reconciliation");
    rowGrid(reconciliation, "Finding", "");
    reconciliation.removeColumnByKey("name");
    gatewayErrors.setId("overview-gateway-errors");
    lateCharges.setId("overview-late-charges");
    chart.setId("overview-chart-box");
    chart.setWidthFull();
    chart.getStyle().set("overflow-x", "auto");

    HorizontalLayout lower =
        new HorizontalLayout(
            section("Processing rows", processing),
            section("Reconciliation, last hour", reconciliation, gatewayErrors));
    lower.setWidthFull();

    add(
        header,
        lateCharges,
        new H3("Keyed requests, last hour (this node)"),
        operations,
        new H3("Per minute, last 60 minutes (this node)"),
        chart,
        lower);
    refresh();
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
    grid.addColumn(Row::value).setHeader("Value").setKey("value").setAutoWidth(true);
  }

  private static VerticalLayout section(String title, com.vaadin.flow.component.Component... body) {
    VerticalLayout section = new VerticalLayout(new H3(title));
    section.add(body);
    section.setPadding(false);
    section.setWidth("50%");
    return section;
  }

  /** Takes a new snapshot; a failing service leaves the view empty with an error notification. */
  void refresh() {
    Notices.call("Overview", overview::snapshot).ifPresentOrElse(this::show, this::clear);
  }

  private void show(OverviewSnapshot snapshot) {
    takenAt.setText("taken at " + Formats.instant(snapshot.takenAt()));
    operations.setItems(snapshot.operations() == null ? List.of() : snapshot.operations());
    processing.setItems(processingRows(snapshot));
    List<Row> findings = new ArrayList<>();
    nullSafe(snapshot.reconciliationFindings())
        .forEach((finding, count) -> findings.add(new Row(finding, "", Long.toString(count))));
    reconciliation.setItems(findings);
    gatewayErrors.setText("Gateway errors, last hour: " + snapshot.gatewayErrors());
    lateCharges.setText(
        "Late charges needing an operator: "
            + snapshot.lateChargesNeedingOperator()
            + (snapshot.lateChargesNeedingOperator() > 0 ? " (see Late charges)" : ""));
    lateCharges.removeClassName(LumoUtility.TextColor.ERROR);
    if (snapshot.lateChargesNeedingOperator() > 0) {
      lateCharges.addClassName(LumoUtility.TextColor.ERROR);
    }
    chart.removeAll();
    chart.add(new Html("<div>" + SvgChart.render(snapshot.perMinute()) + "</div>"));
  }

  private static List<Row> processingRows(OverviewSnapshot snapshot) {
    List<Row> rows = new ArrayList<>();
    nullSafe(snapshot.processingByAge())
        .forEach(
            (operation, buckets) ->
                nullSafe(buckets)
                    .forEach(
                        (bucket, count) ->
                            rows.add(new Row(operation, "age " + bucket, Long.toString(count)))));
    nullSafe(snapshot.oldestProcessing())
        .forEach(
            (operation, oldest) ->
                rows.add(
                    new Row(
                        operation,
                        "oldest claimed",
                        Formats.instant(oldest)
                            + " ("
                            + Formats.ageSince(oldest, snapshot.takenAt())
                            + " ago)")));
    nullSafe(snapshot.expiredLeases())
        .forEach(
            (operation, count) ->
                rows.add(new Row(operation, "expired leases", Long.toString(count))));
    return rows;
  }

  private static <K, V> Map<K, V> nullSafe(Map<K, V> map) {
    return map == null ? Map.of() : map;
  }

  private void clear() {
    takenAt.setText("no figures: the overview could not be read");
    operations.setItems(List.of());
    processing.setItems(List.of());
    reconciliation.setItems(List.of());
    gatewayErrors.setText("");
    lateCharges.setText("");
    chart.removeAll();
  }
}
