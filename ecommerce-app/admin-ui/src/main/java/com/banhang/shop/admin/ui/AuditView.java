package com.banhang.shop.admin.ui;

import com.banhang.shop.admin.application.AuditEntry;
import com.banhang.shop.admin.application.AuditLog;
import com.vaadin.flow.component.Key;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.grid.GridVariant;
import com.vaadin.flow.component.html.H2;
import com.vaadin.flow.component.orderedlayout.FlexComponent;
import com.vaadin.flow.component.orderedlayout.HorizontalLayout;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.component.textfield.TextField;
import com.vaadin.flow.data.provider.CallbackDataProvider;
import com.vaadin.flow.data.value.ValueChangeMode;
import com.vaadin.flow.router.HasDynamicTitle;
import com.vaadin.flow.router.Route;
import jakarta.inject.Inject;
import java.util.List;
import java.util.stream.Stream;

/** Every operator action, newest first, paged on the server. */
@Route(value = "audit", layout = MainLayout.class)
public class AuditView extends VerticalLayout implements HasDynamicTitle {

  private final AuditLog audit;
  final TextField search = new TextField(Texts.t("audit.search.label"));
  final Grid<AuditEntry> grid = new Grid<>();
  private final CallbackDataProvider<AuditEntry, Void> dataProvider;
  private String text;

  @Inject
  public AuditView(AuditLog audit) {
    this.audit = audit;
    setSizeFull();

    search.setId("audit-search-field");
    search.setPlaceholder(Texts.t("audit.search.placeholder"));
    search.setClearButtonVisible(true);
    search.setWidth("28em");
    search.setValueChangeMode(ValueChangeMode.LAZY);
    search.addValueChangeListener(e -> search());
    Button go = new Button(Texts.t("audit.search"), e -> search());
    go.setId("audit-search-button");
    go.addThemeVariants(ButtonVariant.LUMO_PRIMARY);
    go.addClickShortcut(Key.ENTER).listenOn(search);
    HorizontalLayout bar =
        new HorizontalLayout(
            search,
            go,
            CsvExport.link(
                "audit-csv",
                "operator-audit.csv",
                List.of(
                    "occurred_at",
                    "operator",
                    "action",
                    "tenant",
                    "operation",
                    "key",
                    "reason",
                    "result",
                    "detail"),
                operator ->
                    CsvExport.cells(
                        audit.page(this.text, 0, CsvExport.MAX_ROWS),
                        a ->
                            java.util.Arrays.asList(
                                String.valueOf(a.occurredAt()),
                                a.operator(),
                                a.action(),
                                a.tenant(),
                                a.operation(),
                                a.key(),
                                a.reason(),
                                a.result(),
                                a.detail())),
                (operator, file, rows) ->
                    audit.append(
                        operator,
                        com.banhang.shop.admin.application.OperatorActions.EXPORT,
                        null,
                        file,
                        com.banhang.shop.admin.application.ActionResult.done(
                            "exported " + rows + " rows"))));
    bar.setAlignItems(FlexComponent.Alignment.BASELINE);

    dataProvider =
        new CallbackDataProvider<>(
            query ->
                Notices.call(
                        Texts.t("audit.reading"),
                        () -> audit.page(text, query.getOffset(), query.getLimit()))
                    .map(List::stream)
                    .orElseGet(Stream::empty),
            query -> Notices.call(Texts.t("audit.counting"), () -> audit.count(text)).orElse(0),
            AuditEntry::id);
    grid.setId("audit-grid");
    grid.addThemeVariants(GridVariant.LUMO_COMPACT, GridVariant.LUMO_ROW_STRIPES);
    grid.addColumn(a -> Formats.instant(a.occurredAt()))
        .setTooltipGenerator(a -> Formats.utc(a.occurredAt()))
        .setHeader(Texts.t("audit.column.when"))
        .setAutoWidth(true);
    grid.addColumn(AuditEntry::operator)
        .setHeader(Texts.t("audit.column.operator"))
        .setAutoWidth(true);
    grid.addColumn(AuditEntry::action).setHeader(Texts.t("audit.column.action")).setAutoWidth(true);
    grid.addColumn(a -> Formats.text(a.tenant()))
        .setHeader(Texts.t("audit.column.tenant"))
        .setAutoWidth(true);
    grid.addColumn(a -> Formats.text(a.operation()))
        .setHeader(Texts.t("audit.column.operation"))
        .setAutoWidth(true);
    grid.addColumn(a -> Formats.text(a.key()))
        .setHeader(Texts.t("audit.column.key"))
        .setAutoWidth(true);
    grid.addColumn(a -> Formats.text(a.reason()))
        .setHeader(Texts.t("audit.column.reason"))
        .setAutoWidth(true);
    grid.addColumn(AuditEntry::result).setHeader(Texts.t("audit.column.result")).setAutoWidth(true);
    grid.addColumn(a -> Formats.text(a.detail()))
        .setHeader(Texts.t("audit.column.detail"))
        .setAutoWidth(true);
    grid.setItems(dataProvider);
    grid.setSizeFull();

    add(new H2(Texts.t("audit.title")), bar, grid);
  }

  @Override
  public String getPageTitle() {
    return Texts.title("audit.title");
  }

  void search() {
    String value = search.getValue();
    text = value == null || value.isBlank() ? null : value.trim();
    dataProvider.refreshAll();
  }
}
