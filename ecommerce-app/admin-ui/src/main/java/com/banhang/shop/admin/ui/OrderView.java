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
import com.vaadin.flow.router.Route;
import com.vaadin.flow.router.RouteParameters;
import jakarta.inject.Inject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * One order's payments, newest first, at {@code orders/<order id>}: the address a ticket names when
 * the customer reads out an order id. Every attempt to pay the order is listed (a declined one and
 * the one that paid it, say), each opening its payment page.
 */
@Route(value = "orders/:" + OrderView.PARAMETER, layout = MainLayout.class)
public class OrderView extends VerticalLayout implements BeforeEnterObserver, HasDynamicTitle {

  static final String PARAMETER = "orderId";

  private final PaymentPages pages;
  private final H2 title = new H2();
  private final Paragraph summary = new Paragraph();
  final Grid<PaymentRecord> grid = new Grid<>();

  @Inject
  public OrderView(PaymentPages pages) {
    this.pages = pages;
    setWidthFull();
    title.setId("order-title");
    summary.setId("order-summary");
    grid.setId("order-payments-grid");
    grid.addThemeVariants(GridVariant.LUMO_COMPACT, GridVariant.LUMO_ROW_STRIPES);
    grid.addColumn(p -> Formats.instant(p.createdAt()))
        .setTooltipGenerator(p -> Formats.utc(p.createdAt()))
        .setHeader(Texts.t("order.column.created"))
        .setAutoWidth(true);
    grid.addColumn(PaymentRecord::status)
        .setHeader(Texts.t("order.column.status"))
        .setAutoWidth(true);
    grid.addColumn(p -> Formats.money(p.amount(), p.currency()))
        .setHeader(Texts.t("order.column.amount"))
        .setAutoWidth(true);
    grid.addColumn(PaymentRecord::tenantId)
        .setHeader(Texts.t("order.column.customer"))
        .setAutoWidth(true);
    grid.addColumn(PaymentRecord::idempotencyKey)
        .setHeader(Texts.t("order.column.key"))
        .setAutoWidth(true);
    grid.addColumn(PaymentRecord::paymentId)
        .setHeader(Texts.t("order.column.payment"))
        .setAutoWidth(true);
    grid.addItemClickListener(
        e ->
            getUI()
                .ifPresent(
                    ui ->
                        ui.navigate(
                            PaymentView.class,
                            new RouteParameters(PaymentView.PARAMETER, e.getItem().paymentId()))));
    add(title, summary, grid);
  }

  @Override
  public String getPageTitle() {
    return Texts.title("order.title");
  }

  /** The address of an order's page, relative to the console. */
  static String link(String orderId) {
    return "orders/" + URLEncoder.encode(orderId, StandardCharsets.UTF_8).replace("+", "%20");
  }

  @Override
  public void beforeEnter(BeforeEnterEvent event) {
    String orderId = event.getRouteParameters().get(PARAMETER).orElse("");
    title.setText(Texts.t("order.heading", orderId));
    List<PaymentRecord> payments =
        Notices.call(Texts.t("order.reading"), () -> pages.ofOrder(orderId)).orElse(List.of());
    summary.setText(
        payments.isEmpty()
            ? Texts.t("order.none", orderId)
            : Texts.t(payments.size() == 1 ? "order.found.one" : "order.found", payments.size()));
    grid.setItems(payments);
  }
}
