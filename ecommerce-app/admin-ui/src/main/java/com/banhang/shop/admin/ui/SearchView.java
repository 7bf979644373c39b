package com.banhang.shop.admin.ui;

import com.banhang.shop.admin.application.PaymentPages;
import com.banhang.shop.payments.api.PaymentRecord;
import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.grid.GridVariant;
import com.vaadin.flow.component.html.H2;
import com.vaadin.flow.component.html.Paragraph;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.router.BeforeEnterEvent;
import com.vaadin.flow.router.BeforeEnterObserver;
import com.vaadin.flow.router.HasDynamicTitle;
import com.vaadin.flow.router.QueryParameters;
import com.vaadin.flow.router.Route;
import com.vaadin.flow.router.RouteParameters;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;

/**
 * What the search box in the frame finds: the payments a term names (docs/operations.md, "Find
 * it"). One hit opens its payment page at once; several are listed, newest first.
 */
@Route(value = "search", layout = MainLayout.class)
public class SearchView extends VerticalLayout implements BeforeEnterObserver, HasDynamicTitle {

  private final PaymentPages pages;
  final Grid<PaymentRecord> grid = new Grid<>();
  private final Paragraph summary = new Paragraph();

  @Inject
  public SearchView(PaymentPages pages) {
    this.pages = pages;
    setSizeFull();
    summary.setId("search-summary");
    grid.setId("search-grid");
    grid.addThemeVariants(GridVariant.LUMO_COMPACT, GridVariant.LUMO_ROW_STRIPES);
    grid.addColumn(PaymentRecord::tenantId)
        .setHeader(Texts.t("search.column.customer"))
        .setAutoWidth(true);
    grid.addColumn(PaymentRecord::orderId)
        .setHeader(Texts.t("search.column.order"))
        .setAutoWidth(true);
    grid.addColumn(p -> Formats.money(p.amount(), p.currency()))
        .setHeader(Texts.t("search.column.amount"))
        .setAutoWidth(true);
    grid.addColumn(PaymentRecord::status)
        .setHeader(Texts.t("search.column.status"))
        .setAutoWidth(true);
    grid.addColumn(p -> Formats.instant(p.createdAt()))
        .setTooltipGenerator(p -> Formats.utc(p.createdAt()))
        .setHeader(Texts.t("search.column.created"))
        .setAutoWidth(true);
    grid.addColumn(PaymentRecord::idempotencyKey)
        .setHeader(Texts.t("search.column.key"))
        .setAutoWidth(true);
    grid.addColumn(PaymentRecord::paymentId)
        .setHeader(Texts.t("search.column.payment"))
        .setAutoWidth(true);
    // A click (or Enter on a focused row) opens the payment.
    grid.addItemClickListener(e -> open(e.getItem()));
    grid.addSelectionListener(e -> e.getFirstSelectedItem().ifPresent(this::open));
    add(new H2(Texts.t("search.title")), summary, grid);
  }

  @Override
  public String getPageTitle() {
    return Texts.title("search.title");
  }

  /** The address of a search for {@code term}. */
  static String link(String term) {
    return "search?" + QueryParameters.simple(Map.of("q", term)).getQueryString();
  }

  @Override
  public void beforeEnter(BeforeEnterEvent event) {
    List<String> values = event.getLocation().getQueryParameters().getParameters().get("q");
    String term = values == null || values.isEmpty() ? "" : values.get(0).trim();
    if (term.isEmpty()) {
      summary.setText(Texts.t("search.empty"));
      grid.setItems(List.of());
      return;
    }
    List<PaymentRecord> found =
        Notices.call(Texts.t("search.searching"), () -> pages.search(term)).orElse(List.of());
    if (found.size() == 1) {
      event.forwardTo(
          PaymentView.class, new RouteParameters(PaymentView.PARAMETER, found.get(0).paymentId()));
      return;
    }
    summary.setText(
        found.isEmpty()
            ? Texts.t("search.none", term)
            : Texts.t(
                found.size() >= PaymentPages.SEARCH_LIMIT ? "search.found.first" : "search.found",
                found.size(),
                term));
    grid.setItems(found);
  }

  private void open(PaymentRecord payment) {
    getUI()
        .ifPresent(
            ui ->
                ui.navigate(
                    PaymentView.class,
                    new RouteParameters(PaymentView.PARAMETER, payment.paymentId())));
  }
}
