package com.banhang.shop.admin.ui;

import com.banhang.shop.admin.application.ActionResult;
import com.banhang.shop.admin.application.LateCharges;
import com.banhang.shop.admin.application.OperatorActions;
import com.banhang.shop.payments.api.FlaggedLateChargeView;
import com.banhang.shop.payments.api.FlaggedLateCharges;
import com.banhang.shop.payments.api.FlaggedLateCharges.Handling;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.checkbox.Checkbox;
import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.grid.GridVariant;
import com.vaadin.flow.component.html.H2;
import com.vaadin.flow.component.html.Paragraph;
import com.vaadin.flow.component.orderedlayout.FlexComponent;
import com.vaadin.flow.component.orderedlayout.HorizontalLayout;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.data.provider.CallbackDataProvider;
import com.vaadin.flow.router.HasDynamicTitle;
import com.vaadin.flow.router.Route;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Charges that reached the gateway after their attempt was abandoned and that the late-charge sweep
 * could not record (docs/operations.md, "Late charges"), newest first, paged on the server. The
 * operator deals with each at the processor (refund it, or accept it) and then marks it handled
 * here, with a reason and a ticket: the mark moves no money, it records what was done and takes the
 * charge off the Overview's count. Handled ones are hidden unless asked for.
 */
@Route(value = "late-charges", layout = MainLayout.class)
public class LateChargesView extends VerticalLayout implements HasDynamicTitle {

  final Grid<FlaggedLateChargeView> grid = new Grid<>();
  final Checkbox showHandled = new Checkbox(Texts.t("late.show-handled"));
  private final CallbackDataProvider<FlaggedLateChargeView, Void> dataProvider;
  private final OperatorActions actions;

  @Inject
  public LateChargesView(LateCharges lateCharges, OperatorActions actions) {
    this.actions = actions;
    setSizeFull();

    Button refresh = new Button(Texts.t("late.refresh"), e -> refresh());
    refresh.setId("refresh-button");
    showHandled.setId("late-charges-show-handled");
    showHandled.addValueChangeListener(e -> refresh());
    // The export is a read of customers' charges like the grid's pages: audited the same way.
    HorizontalLayout header =
        new HorizontalLayout(
            new H2(Texts.t("late.title")),
            refresh,
            showHandled,
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
                    "detail",
                    "handling",
                    "handled_by",
                    "handled_at",
                    "handled_reason"),
                operator ->
                    CsvExport.cells(
                        lateCharges.page(operator, 0, CsvExport.MAX_ROWS, showHandled.getValue()),
                        c ->
                            java.util.Arrays.asList(
                                String.valueOf(c.foundAt()),
                                c.flag(),
                                c.tenantId(),
                                c.orderId(),
                                Formats.money(c.amount(), c.currency()),
                                c.gatewayChargeId(),
                                c.paymentId(),
                                c.detail(),
                                c.handling(),
                                c.handledBy(),
                                c.handledAt() == null ? null : String.valueOf(c.handledAt()),
                                c.handledReason())),
                actions::recordExport));
    header.setAlignItems(FlexComponent.Alignment.BASELINE);
    Paragraph help = new Paragraph(Texts.t("late.help"));

    Button refunded =
        new Button(Texts.t("late.mark-refunded"), e -> markHandled(Handling.REFUNDED));
    refunded.setId("late-charge-refunded-button");
    Button accepted =
        new Button(Texts.t("late.mark-accepted"), e -> markHandled(Handling.ACCEPTED));
    accepted.setId("late-charge-accepted-button");
    HorizontalLayout marks = new HorizontalLayout(refunded, accepted);

    dataProvider =
        new CallbackDataProvider<>(
            query ->
                Notices.call(
                        Texts.t("late.reading"),
                        () ->
                            lateCharges.page(
                                OperatorSession.currentName(),
                                query.getOffset(),
                                query.getLimit(),
                                showHandled.getValue()))
                    .map(List::stream)
                    .orElseGet(Stream::empty),
            query ->
                Notices.call(
                        Texts.t("late.counting"), () -> lateCharges.count(showHandled.getValue()))
                    .orElse(0),
            FlaggedLateChargeView::paymentId);
    grid.setId("late-charges-grid");
    grid.setSelectionMode(Grid.SelectionMode.SINGLE);
    grid.addThemeVariants(GridVariant.LUMO_COMPACT, GridVariant.LUMO_ROW_STRIPES);
    grid.addColumn(c -> Formats.instant(c.foundAt()))
        .setTooltipGenerator(c -> Formats.utc(c.foundAt()))
        .setHeader(Texts.t("late.column.found"))
        .setAutoWidth(true);
    grid.addColumn(FlaggedLateChargeView::flag)
        .setHeader(Texts.t("late.column.flag"))
        .setAutoWidth(true);
    grid.addColumn(c -> meaning(c.flag()))
        .setHeader(Texts.t("late.column.what-to-do"))
        .setAutoWidth(true);
    grid.addColumn(FlaggedLateChargeView::tenantId)
        .setHeader(Texts.t("late.column.tenant"))
        .setAutoWidth(true);
    grid.addColumn(FlaggedLateChargeView::orderId)
        .setHeader(Texts.t("late.column.order"))
        .setAutoWidth(true);
    grid.addColumn(c -> Formats.money(c.amount(), c.currency()))
        .setHeader(Texts.t("late.column.amount"))
        .setAutoWidth(true);
    grid.addColumn(c -> Formats.text(c.gatewayChargeId()))
        .setHeader(Texts.t("late.column.gateway-charge"))
        .setAutoWidth(true);
    grid.addColumn(FlaggedLateChargeView::paymentId)
        .setHeader(Texts.t("late.column.payment"))
        .setAutoWidth(true);
    grid.addColumn(c -> Formats.text(c.detail()))
        .setHeader(Texts.t("late.column.detail"))
        .setAutoWidth(true);
    grid.addColumn(LateChargesView::handled)
        .setTooltipGenerator(c -> c.handled() ? Formats.utc(c.handledAt()) : null)
        .setHeader(Texts.t("late.column.handled"))
        .setAutoWidth(true);
    grid.setItems(dataProvider);
    grid.setSizeFull();

    add(header, help, marks, grid);
  }

  @Override
  public String getPageTitle() {
    return Texts.title("late.title");
  }

  /** What the flag means for the operator. */
  static String meaning(String flag) {
    if (FlaggedLateCharges.DOUBLE_CHARGE.equals(flag)) {
      return Texts.t("late.flag.double-charge");
    }
    if (FlaggedLateCharges.MISMATCH.equals(flag)) {
      return Texts.t("late.flag.mismatch");
    }
    if (FlaggedLateCharges.DECLINED.equals(flag)) {
      return Texts.t("late.flag.declined");
    }
    return Formats.text(flag);
  }

  /** Who handled it, when, how and why; the empty mark while nobody has. */
  static String handled(FlaggedLateChargeView c) {
    if (!c.handled()) {
      return Formats.NONE;
    }
    return Texts.t(
        "late.handled",
        c.handling(),
        c.handledBy(),
        Formats.instant(c.handledAt()),
        Formats.text(c.handledReason()));
  }

  /**
   * Opens the dialog that marks the selected late charge handled: it restates what is being marked
   * so that the operator can read it back against the processor, and asks for a reason and a
   * ticket. The service decides; its refusal (already handled, not refundable) is shown as it says.
   */
  void markHandled(Handling handling) {
    Optional<FlaggedLateChargeView> selected = grid.getSelectedItems().stream().findFirst();
    if (selected.isEmpty()) {
      Notices.error(Texts.t("late.select-first"));
      return;
    }
    FlaggedLateChargeView charge = selected.get();
    boolean refund = handling == Handling.REFUNDED;
    new ResolveDialog(
            "late-charge-handled-dialog",
            Texts.t(
                refund ? "late.dialog.refunded.title" : "late.dialog.accepted.title",
                Formats.text(charge.gatewayChargeId())),
            List.of(
                new ResolveDialog.Fact(Texts.t("resolve.fact.customer"), charge.tenantId()),
                new ResolveDialog.Fact(Texts.t("late.column.order"), charge.orderId()),
                new ResolveDialog.Fact(
                    Texts.t("late.column.amount"),
                    Formats.money(charge.amount(), charge.currency())),
                new ResolveDialog.Fact(
                    Texts.t("late.column.flag"),
                    Texts.t("late.flag.restated", charge.flag(), meaning(charge.flag()))),
                new ResolveDialog.Fact(
                    Texts.t("late.column.gateway-charge"), charge.gatewayChargeId()),
                new ResolveDialog.Fact(Texts.t("late.column.payment"), charge.paymentId())),
            Texts.t(
                refund ? "late.dialog.refunded.explanation" : "late.dialog.accepted.explanation"),
            false,
            (chargeId, reason) ->
                act(
                        Texts.t(refund ? "late.mark-refunded" : "late.mark-accepted"),
                        () ->
                            actions.markLateChargeHandled(
                                OperatorSession.currentName(),
                                charge.paymentId(),
                                handling,
                                reason))
                    .isPresent())
        .open();
  }

  /** Calls an action, shows its result at once and re-reads the grid. */
  private Optional<ActionResult> act(String what, java.util.function.Supplier<ActionResult> call) {
    return Notices.act(
        what,
        call,
        () -> {
          grid.deselectAll();
          refresh();
        });
  }

  void refresh() {
    dataProvider.refreshAll();
  }
}
