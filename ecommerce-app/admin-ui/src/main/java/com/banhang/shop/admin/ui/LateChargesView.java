package com.banhang.shop.admin.ui;

import com.banhang.shop.admin.application.LateCharges;
import com.banhang.shop.payments.api.FlaggedLateChargeView;
import com.banhang.shop.payments.api.FlaggedLateCharges;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.grid.GridVariant;
import com.vaadin.flow.component.html.H2;
import com.vaadin.flow.component.html.Paragraph;
import com.vaadin.flow.component.orderedlayout.FlexComponent;
import com.vaadin.flow.component.orderedlayout.HorizontalLayout;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.data.provider.CallbackDataProvider;
import com.vaadin.flow.router.PageTitle;
import com.vaadin.flow.router.Route;
import jakarta.inject.Inject;
import java.util.List;
import java.util.stream.Stream;

/**
 * Charges that reached the gateway after their attempt was abandoned and that the late-charge sweep
 * could not record (docs/operations.md, "Late charges"), newest first, paged on the server. Read
 * only: a double charge is refunded at the processor, not here.
 */
@Route(value = "late-charges", layout = MainLayout.class)
@PageTitle("Late charges | BanHang operator console")
public class LateChargesView extends VerticalLayout {

  static final String DOUBLE_CHARGE = "charged twice: refund at the processor";
  static final String MISMATCH = "not this attempt's charge: check it at the processor";
  static final String DECLINED = "declined: nothing was charged, nothing to do";

  final Grid<FlaggedLateChargeView> grid = new Grid<>();
  private final CallbackDataProvider<FlaggedLateChargeView, Void> dataProvider;

  @Inject
  public LateChargesView(LateCharges lateCharges) {
    setSizeFull();

    Button refresh = new Button("Refresh", e -> refresh());
    refresh.setId("refresh-button");
    // The export is a read of customers' charges like the grid's pages: audited the same way.
    HorizontalLayout header =
        new HorizontalLayout(
            new H2("Late charges"),
            refresh,
            CsvExport.link(
                "late-charges-csv",
                "late-charges.csv",
                List.of(
                    "found_at",
                    "flag",
                    "tenant",
                    "order",
                    "amount",
                    "gateway_charge",
                    "payment",
                    "detail"),
                operator ->
                    CsvExport.cells(
                        lateCharges.page(operator, 0, CsvExport.MAX_ROWS),
                        c ->
                            java.util.Arrays.asList(
                                String.valueOf(c.foundAt()),
                                c.flag(),
                                c.tenantId(),
                                c.orderId(),
                                Formats.money(c.amount(), c.currency()),
                                c.gatewayChargeId(),
                                c.paymentId(),
                                c.detail()))));
    header.setAlignItems(FlexComponent.Alignment.BASELINE);
    Paragraph help =
        new Paragraph(
            "Charges the gateway took after the shop had given their attempt up and that the"
                + " late-charge sweep could not record. The shop changes nothing here: refund or"
                + " check them at the processor (see the operator's guide).");

    dataProvider =
        new CallbackDataProvider<>(
            query ->
                Notices.call(
                        "Reading the late charges",
                        () ->
                            lateCharges.page(
                                OperatorSession.currentName(), query.getOffset(), query.getLimit()))
                    .map(List::stream)
                    .orElseGet(Stream::empty),
            query -> Notices.call("Counting the late charges", lateCharges::count).orElse(0),
            FlaggedLateChargeView::paymentId);
    grid.setId("late-charges-grid");
    grid.addThemeVariants(GridVariant.LUMO_COMPACT, GridVariant.LUMO_ROW_STRIPES);
    grid.addColumn(c -> Formats.instant(c.foundAt()))
        .setTooltipGenerator(c -> Formats.utc(c.foundAt()))
        .setHeader("Found")
        .setAutoWidth(true);
    grid.addColumn(FlaggedLateChargeView::flag).setHeader("Flag").setAutoWidth(true);
    grid.addColumn(c -> meaning(c.flag())).setHeader("What to do").setAutoWidth(true);
    grid.addColumn(FlaggedLateChargeView::tenantId).setHeader("Tenant").setAutoWidth(true);
    grid.addColumn(FlaggedLateChargeView::orderId).setHeader("Order").setAutoWidth(true);
    grid.addColumn(c -> Formats.money(c.amount(), c.currency()))
        .setHeader("Amount")
        .setAutoWidth(true);
    grid.addColumn(c -> Formats.text(c.gatewayChargeId()))
        .setHeader("Gateway charge")
        .setAutoWidth(true);
    grid.addColumn(FlaggedLateChargeView::paymentId).setHeader("Payment").setAutoWidth(true);
    grid.addColumn(c -> Formats.text(c.detail())).setHeader("Detail").setAutoWidth(true);
    grid.setItems(dataProvider);
    grid.setSizeFull();

    add(header, help, grid);
  }

  /** What the flag means for the operator. */
  static String meaning(String flag) {
    if (FlaggedLateCharges.DOUBLE_CHARGE.equals(flag)) {
      return DOUBLE_CHARGE;
    }
    if (FlaggedLateCharges.MISMATCH.equals(flag)) {
      return MISMATCH;
    }
    if (FlaggedLateCharges.DECLINED.equals(flag)) {
      return DECLINED;
    }
    return Formats.text(flag);
  }

  void refresh() {
    dataProvider.refreshAll();
  }
}
