package com.banhang.shop.admin.ui;

import com.banhang.shop.admin.application.ActionResult;
import com.banhang.shop.admin.application.GatewayEventsIn;
import com.banhang.shop.admin.application.OperatorActions;
import com.banhang.shop.payments.api.GatewayEventView;
import com.vaadin.flow.component.Component;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.grid.GridVariant;
import com.vaadin.flow.component.html.Anchor;
import com.vaadin.flow.component.html.H2;
import com.vaadin.flow.component.html.Paragraph;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.orderedlayout.FlexComponent;
import com.vaadin.flow.component.orderedlayout.HorizontalLayout;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.component.select.Select;
import com.vaadin.flow.data.provider.CallbackDataProvider;
import com.vaadin.flow.router.HasDynamicTitle;
import com.vaadin.flow.router.Route;
import com.vaadin.flow.theme.lumo.LumoUtility;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The events the processor sent the shop by webhook (docs/operations.md, "Gateway events"), newest
 * delivery first, paged on the server: each with how its signature was verified and what its
 * processing did to its payment. It opens on what waits for an operator (parked events, and flagged
 * ones nobody has marked handled): that is what the Overview's count sends the operator here for,
 * and at night the settled and confirmed ones, by far the most, would bury it. The filter shows all
 * events, or those of one status.
 *
 * <p>Two actions, both decided and audited by {@link OperatorActions}: <b>Retry</b> processes a
 * parked event again now; <b>Mark handled</b> records, with a reason and a ticket, that the
 * operator dealt with a flagged event's contradiction at the processor. Neither is offered on other
 * rows.
 */
@Route(value = "gateway-events", layout = MainLayout.class)
public class GatewayEventsView extends VerticalLayout implements HasDynamicTitle {

  private static final String PARKED = GatewayEventView.Status.PARKED.name();
  private static final String FLAGGED = GatewayEventView.Status.FLAGGED.name();

  final Grid<GatewayEventView> grid = new Grid<>();
  final Select<String> filter = new Select<>();
  final Span waiting = new Span();
  final Button retry = new Button(Texts.t("gateway-events.retry"), e -> retry());
  final Button markHandled = new Button(Texts.t("gateway-events.mark-handled"), e -> markHandled());
  private final GatewayEventsIn gatewayEvents;
  private final OperatorActions actions;
  private final CallbackDataProvider<GatewayEventView, Void> dataProvider;

  @Inject
  public GatewayEventsView(GatewayEventsIn gatewayEvents, OperatorActions actions) {
    this.gatewayEvents = gatewayEvents;
    this.actions = actions;
    setSizeFull();

    Button refresh = new Button(Texts.t("gateway-events.refresh"), e -> refresh());
    refresh.setId("refresh-button");
    filter.setId("gateway-events-filter");
    filter.setLabel(Texts.t("gateway-events.filter"));
    filter.setItems(GatewayEventsIn.filters());
    filter.setItemLabelGenerator(GatewayEventsView::filterLabel);
    filter.setValue(GatewayEventsIn.NEEDING_OPERATOR);
    filter.addValueChangeListener(
        e -> {
          grid.deselectAll();
          refresh();
        });
    waiting.setId("gateway-events-waiting");
    HorizontalLayout header =
        new HorizontalLayout(new H2(Texts.t("gateway-events.title")), refresh, filter, waiting);
    header.setAlignItems(FlexComponent.Alignment.BASELINE);

    retry.setId("gateway-event-retry-button");
    markHandled.setId("gateway-event-handled-button");
    HorizontalLayout buttons = new HorizontalLayout(retry, markHandled);

    dataProvider =
        new CallbackDataProvider<>(
            query ->
                Notices.call(
                        Texts.t("gateway-events.reading"),
                        () ->
                            gatewayEvents.page(
                                OperatorSession.currentName(),
                                filter.getValue(),
                                query.getOffset(),
                                query.getLimit()))
                    .map(List::stream)
                    .orElseGet(Stream::empty),
            query ->
                Notices.call(
                        Texts.t("gateway-events.counting"),
                        () ->
                            Math.toIntExact(
                                Math.min(
                                    Integer.MAX_VALUE, gatewayEvents.count(filter.getValue()))))
                    .orElse(0),
            e -> e.provider() + "/" + e.eventId());
    grid.setId("gateway-events-grid");
    grid.setSelectionMode(Grid.SelectionMode.SINGLE);
    grid.addThemeVariants(GridVariant.LUMO_COMPACT, GridVariant.LUMO_ROW_STRIPES);
    grid.addColumn(e -> Formats.instant(e.receivedAt()))
        .setTooltipGenerator(e -> Formats.utc(e.receivedAt()))
        .setHeader(Texts.t("gateway-events.column.received"))
        .setAutoWidth(true);
    grid.addColumn(GatewayEventView::provider)
        .setHeader(Texts.t("gateway-events.column.provider"))
        .setAutoWidth(true);
    grid.addColumn(GatewayEventView::eventId)
        .setHeader(Texts.t("gateway-events.column.event"))
        .setAutoWidth(true);
    grid.addColumn(GatewayEventView::type)
        .setHeader(Texts.t("gateway-events.column.type"))
        .setAutoWidth(true);
    grid.addColumn(e -> Formats.text(e.chargeId()))
        .setHeader(Texts.t("gateway-events.column.charge"))
        .setAutoWidth(true);
    grid.addComponentColumn(GatewayEventsView::paymentLink)
        .setKey("payment")
        .setHeader(Texts.t("gateway-events.column.payment"))
        .setAutoWidth(true);
    grid.addColumn(GatewayEventView::status)
        .setHeader(Texts.t("gateway-events.column.status"))
        .setAutoWidth(true);
    grid.addColumn(e -> Formats.text(e.verification()))
        .setTooltipGenerator(e -> Formats.text(e.verification()))
        .setHeader(Texts.t("gateway-events.column.verification"))
        .setAutoWidth(true);
    grid.addColumn(GatewayEventView::deliveries)
        .setHeader(Texts.t("gateway-events.column.deliveries"))
        .setAutoWidth(true);
    grid.addColumn(GatewayEventView::attempts)
        .setHeader(Texts.t("gateway-events.column.attempts"))
        .setAutoWidth(true);
    // What the processing found can be long: the column takes the room left, all of it on hover.
    grid.addColumn(e -> Formats.text(e.detail()))
        .setTooltipGenerator(e -> Formats.text(e.detail()))
        .setHeader(Texts.t("gateway-events.column.detail"))
        .setFlexGrow(1);
    grid.addColumn(GatewayEventsView::handled)
        .setHeader(Texts.t("gateway-events.column.handled"))
        .setAutoWidth(true);
    grid.setItems(dataProvider);
    grid.addSelectionListener(e -> offerActions(e.getFirstSelectedItem()));
    grid.setSizeFull();
    offerActions(Optional.empty());

    add(header, new Paragraph(Texts.t("gateway-events.help")), buttons, grid);
  }

  /**
   * The counts are read once the view is shown: by then the layout has let only an operator in, so
   * an anonymous visitor never causes a read (the grid's pages, audited, are read then too).
   */
  @Override
  protected void onAttach(com.vaadin.flow.component.AttachEvent attachEvent) {
    super.onAttach(attachEvent);
    showWaiting();
  }

  @Override
  public String getPageTitle() {
    return Texts.title("gateway-events.title");
  }

  /**
   * What the filter offers, in words. A status is shown as its name, as the service writes it; the
   * two filters that are not a status are named.
   */
  static String filterLabel(String filter) {
    if (GatewayEventsIn.NEEDING_OPERATOR.equals(filter)) {
      return Texts.t("gateway-events.filter.needing-operator");
    }
    if (GatewayEventsIn.ALL.equals(filter)) {
      return Texts.t("gateway-events.filter.all");
    }
    return filter;
  }

  /** The payment's page, or the empty mark when the event was matched with none. */
  private static Component paymentLink(GatewayEventView event) {
    if (event.paymentId() == null) {
      return new Span(Formats.NONE);
    }
    Anchor link = new Anchor(PaymentView.link(event.paymentId()), event.paymentId());
    link.setId("gateway-event-payment-" + event.eventId());
    return link;
  }

  /** Who marked a flagged event handled and why; the empty mark otherwise. */
  static String handled(GatewayEventView event) {
    if (event.handledBy() == null) {
      return Formats.NONE;
    }
    return Texts.t(
        "gateway-events.handled", event.handledBy(), Formats.text(event.handledReason()));
  }

  /** Retry for a parked event, Mark handled for a flagged one nobody has marked: nothing else. */
  private void offerActions(Optional<GatewayEventView> selected) {
    retry.setEnabled(selected.map(e -> PARKED.equals(e.status())).orElse(false));
    markHandled.setEnabled(
        selected.map(e -> FLAGGED.equals(e.status()) && e.handledBy() == null).orElse(false));
  }

  void retry() {
    Optional<GatewayEventView> selected = grid.getSelectedItems().stream().findFirst();
    if (selected.isEmpty()) {
      Notices.error(Texts.t("gateway-events.select-first"));
      return;
    }
    GatewayEventView event = selected.get();
    act(
        Texts.t("gateway-events.retry"),
        () ->
            actions.retryGatewayEvent(
                OperatorSession.currentName(), event.provider(), event.eventId()));
  }

  /**
   * Opens the dialog that marks the selected flagged event handled: it restates the event and what
   * it contradicts, so that the operator can read it back against the processor, and asks for a
   * reason and a ticket. The service decides; its refusal (already handled) is shown as it says.
   */
  void markHandled() {
    Optional<GatewayEventView> selected = grid.getSelectedItems().stream().findFirst();
    if (selected.isEmpty()) {
      Notices.error(Texts.t("gateway-events.select-first"));
      return;
    }
    GatewayEventView event = selected.get();
    new ResolveDialog(
            "gateway-event-handled-dialog",
            Texts.t("gateway-events.dialog.title", event.eventId()),
            List.of(
                new ResolveDialog.Fact(Texts.t("gateway-events.column.provider"), event.provider()),
                new ResolveDialog.Fact(Texts.t("gateway-events.column.type"), event.type()),
                new ResolveDialog.Fact(Texts.t("gateway-events.column.charge"), event.chargeId()),
                new ResolveDialog.Fact(Texts.t("gateway-events.column.payment"), event.paymentId()),
                new ResolveDialog.Fact(
                    Texts.t("gateway-events.column.verification"), event.verification()),
                new ResolveDialog.Fact(Texts.t("gateway-events.column.detail"), event.detail())),
            Texts.t("gateway-events.dialog.explanation"),
            false,
            (chargeId, reason) ->
                act(
                        Texts.t("gateway-events.mark-handled"),
                        () ->
                            actions.markGatewayEventHandled(
                                OperatorSession.currentName(),
                                event.provider(),
                                event.eventId(),
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

  /** Re-reads the grid and what waits for an operator. */
  void refresh() {
    dataProvider.refreshAll();
    showWaiting();
  }

  private void showWaiting() {
    waiting.removeClassName(LumoUtility.TextColor.ERROR);
    Optional<long[]> counts =
        Notices.call(
            Texts.t("gateway-events.counting"),
            () -> new long[] {gatewayEvents.countFlaggedUnhandled(), gatewayEvents.countParked()});
    if (counts.isEmpty()) {
      waiting.setText("");
      return;
    }
    long flagged = counts.get()[0];
    long parked = counts.get()[1];
    waiting.setText(Texts.t("gateway-events.waiting", flagged, parked));
    if (flagged + parked > 0) {
      waiting.addClassName(LumoUtility.TextColor.ERROR);
    }
  }
}
