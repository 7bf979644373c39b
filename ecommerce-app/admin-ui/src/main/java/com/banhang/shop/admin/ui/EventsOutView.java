package com.banhang.shop.admin.ui;

import com.banhang.events.OutboxEvent;
import com.banhang.events.OutboxStore.ParkedEvent;
import com.banhang.events.webhooks.DeliveryAttempt;
import com.banhang.events.webhooks.DeliveryHistory;
import com.banhang.events.webhooks.DisabledEndpoint;
import com.banhang.events.webhooks.WebhookDelivery;
import com.banhang.shop.admin.application.ActionResult;
import com.banhang.shop.admin.application.EventsOut;
import com.vaadin.flow.component.AttachEvent;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.confirmdialog.ConfirmDialog;
import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.grid.GridVariant;
import com.vaadin.flow.component.html.H2;
import com.vaadin.flow.component.html.H3;
import com.vaadin.flow.component.html.H4;
import com.vaadin.flow.component.html.Paragraph;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.orderedlayout.FlexComponent;
import com.vaadin.flow.component.orderedlayout.HorizontalLayout;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.router.HasDynamicTitle;
import com.vaadin.flow.router.Route;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What the shop could not send out on its own and that waits for an operator: events the relay
 * parked after its last retry, webhook deliveries parked after theirs, and endpoints nothing is
 * sent to since a subscriber answered 410 Gone; and the action that puts each back in line.
 *
 * <p>Everything comes from one {@link EventsOut#parked} read when the view is shown and on Refresh
 * (a delivery's attempts are read when it is selected). Each read is written to the audit, so the
 * view neither polls ({@link AutoRefresh} would add an audit row every few seconds all night while
 * the page stays open) nor reads while the operator merely looks at a row.
 */
@Route(value = "events", layout = MainLayout.class)
public class EventsOutView extends VerticalLayout implements HasDynamicTitle {

  /** The most rows of each kind one read shows, oldest first. */
  static final int LIMIT = 100;

  private final EventsOut eventsOut;

  final Grid<ParkedEvent> events = new Grid<>();
  final Grid<WebhookDelivery> deliveries = new Grid<>();
  final Grid<DeliveryAttempt> attempts = new Grid<>();
  final Grid<DisabledEndpoint> endpoints = new Grid<>();
  final Span eventsCount = new Span();
  final Span deliveriesCount = new Span();
  final Span endpointsCount = new Span();
  final H4 attemptsTitle = new H4();

  @Inject
  public EventsOutView(EventsOut eventsOut) {
    this.eventsOut = eventsOut;
    setWidthFull();

    Button refresh = new Button(Texts.t("events.refresh"), e -> refresh());
    refresh.setId("refresh-button");
    HorizontalLayout header = new HorizontalLayout(new H2(Texts.t("events.title")), refresh);
    header.setAlignItems(FlexComponent.Alignment.BASELINE);

    Button retryEvent = new Button(Texts.t("events.retry-event"), e -> retryEvent());
    retryEvent.setId("retry-event-button");
    Button retryDelivery = new Button(Texts.t("events.retry-delivery"), e -> retryDelivery());
    retryDelivery.setId("retry-delivery-button");
    Button enableEndpoint = new Button(Texts.t("events.enable-endpoint"), e -> enableEndpoint());
    enableEndpoint.setId("enable-endpoint-button");

    eventsCount.setId("events-parked-count");
    deliveriesCount.setId("deliveries-parked-count");
    endpointsCount.setId("endpoints-disabled-count");
    attemptsTitle.setId("delivery-attempts-title");

    parkedEventsGrid();
    parkedDeliveriesGrid();
    attemptsGrid();
    disabledEndpointsGrid();

    add(
        header,
        new Paragraph(Texts.t("events.help")),
        new H3(Texts.t("events.parked.title")),
        new Paragraph(Texts.t("events.parked.help")),
        eventsCount,
        retryEvent,
        events,
        new H3(Texts.t("events.deliveries.title")),
        new Paragraph(Texts.t("events.deliveries.help")),
        deliveriesCount,
        retryDelivery,
        deliveries,
        attemptsTitle,
        attempts,
        new H3(Texts.t("events.endpoints.title")),
        new Paragraph(Texts.t("events.endpoints.help")),
        endpointsCount,
        enableEndpoint,
        endpoints);
    showAttempts(Optional.empty());
  }

  @Override
  public String getPageTitle() {
    return Texts.title("events.title");
  }

  /**
   * The first read waits until the view is shown: by then the layout has let only an operator in,
   * so an anonymous visitor never causes a read, and the read is audited under a name.
   */
  @Override
  protected void onAttach(AttachEvent attachEvent) {
    super.onAttach(attachEvent);
    refresh();
  }

  private void parkedEventsGrid() {
    events.setId("events-parked-grid");
    compact(events);
    events
        .addColumn(p -> Formats.instant(p.parkedAt()))
        .setTooltipGenerator(p -> Formats.utc(p.parkedAt()))
        .setHeader(Texts.t("events.parked.column.parked-at"))
        .setAutoWidth(true);
    events
        .addColumn(p -> Formats.text(p.event().type()))
        .setHeader(Texts.t("events.parked.column.type"))
        .setAutoWidth(true);
    events
        .addColumn(p -> aggregate(p.event()))
        .setHeader(Texts.t("events.parked.column.aggregate"))
        .setAutoWidth(true);
    events
        .addColumn(p -> p.event().sequence())
        .setHeader(Texts.t("events.parked.column.sequence"))
        .setAutoWidth(true);
    events
        .addColumn(p -> Formats.text(p.event().tenantId()))
        .setHeader(Texts.t("events.parked.column.tenant"))
        .setAutoWidth(true);
    events
        .addColumn(p -> p.event().attempts())
        .setHeader(Texts.t("events.parked.column.attempts"))
        .setAutoWidth(true);
    // Errors can be long: the column takes the room left, the whole text is on hover.
    events
        .addColumn(p -> Formats.text(p.lastError()))
        .setTooltipGenerator(p -> Formats.text(p.lastError()))
        .setHeader(Texts.t("events.parked.column.last-error"))
        .setFlexGrow(1);
  }

  private void parkedDeliveriesGrid() {
    deliveries.setId("deliveries-parked-grid");
    compact(deliveries);
    deliveries
        .addColumn(d -> Formats.instant(d.createdAt()))
        .setTooltipGenerator(d -> Formats.utc(d.createdAt()))
        .setHeader(Texts.t("events.deliveries.column.created"))
        .setAutoWidth(true);
    deliveries
        .addColumn(d -> Formats.text(d.endpoint()))
        .setHeader(Texts.t("events.deliveries.column.endpoint"))
        .setAutoWidth(true);
    deliveries
        .addColumn(d -> Formats.text(d.tenantId()))
        .setHeader(Texts.t("events.deliveries.column.tenant"))
        .setAutoWidth(true);
    deliveries
        .addColumn(d -> Formats.text(d.eventId()))
        .setHeader(Texts.t("events.deliveries.column.event"))
        .setAutoWidth(true);
    deliveries
        .addColumn(WebhookDelivery::attempts)
        .setHeader(Texts.t("events.deliveries.column.attempts"))
        .setAutoWidth(true);
    deliveries
        .addColumn(d -> Formats.text(d.lastStatus()))
        .setHeader(Texts.t("events.deliveries.column.last-status"))
        .setAutoWidth(true);
    deliveries
        .addColumn(d -> Formats.text(d.lastError()))
        .setTooltipGenerator(d -> Formats.text(d.lastError()))
        .setHeader(Texts.t("events.deliveries.column.last-error"))
        .setFlexGrow(1);
    deliveries.addSelectionListener(e -> showAttempts(e.getFirstSelectedItem()));
  }

  private void attemptsGrid() {
    attempts.setId("delivery-attempts-grid");
    compact(attempts);
    attempts
        .addColumn(DeliveryAttempt::number)
        .setHeader(Texts.t("events.attempts.column.number"))
        .setAutoWidth(true);
    attempts
        .addColumn(a -> Formats.instant(a.attemptedAt()))
        .setTooltipGenerator(a -> Formats.utc(a.attemptedAt()))
        .setHeader(Texts.t("events.attempts.column.at"))
        .setAutoWidth(true);
    attempts
        .addColumn(a -> Formats.text(a.httpStatus()))
        .setHeader(Texts.t("events.attempts.column.status"))
        .setAutoWidth(true);
    attempts
        .addColumn(a -> Formats.text(a.error()))
        .setTooltipGenerator(a -> Formats.text(a.error()))
        .setHeader(Texts.t("events.attempts.column.error"))
        .setFlexGrow(1);
    attempts
        .addColumn(a -> Texts.t("events.attempts.duration", a.durationMillis()))
        .setHeader(Texts.t("events.attempts.column.duration"))
        .setAutoWidth(true);
  }

  private void disabledEndpointsGrid() {
    endpoints.setId("endpoints-disabled-grid");
    compact(endpoints);
    endpoints
        .addColumn(d -> Formats.text(d.endpoint()))
        .setHeader(Texts.t("events.endpoints.column.endpoint"))
        .setAutoWidth(true);
    endpoints
        .addColumn(d -> Formats.instant(d.disabledAt()))
        .setTooltipGenerator(d -> Formats.utc(d.disabledAt()))
        .setHeader(Texts.t("events.endpoints.column.disabled-at"))
        .setAutoWidth(true);
    endpoints
        .addColumn(d -> Formats.text(d.reason()))
        .setTooltipGenerator(d -> Formats.text(d.reason()))
        .setHeader(Texts.t("events.endpoints.column.reason"))
        .setFlexGrow(1);
  }

  /**
   * At most {@value #LIMIT} rows each: the grids grow with their rows instead of scrolling inside
   * the page, so that no parked row hides below a grid's fold.
   */
  private static void compact(Grid<?> grid) {
    grid.setSelectionMode(Grid.SelectionMode.SINGLE);
    grid.addThemeVariants(GridVariant.LUMO_COMPACT, GridVariant.LUMO_ROW_STRIPES);
    grid.setAllRowsVisible(true);
  }

  /** The aggregate an event belongs to (an order): its type and id. */
  static String aggregate(OutboxEvent event) {
    return Texts.t("events.aggregate", event.aggregateType(), event.aggregateId());
  }

  /** One audited read of everything that waits; the selections go with the old rows. */
  void refresh() {
    events.deselectAll();
    deliveries.deselectAll();
    endpoints.deselectAll();
    Optional<EventsOut.Parked> read =
        Notices.call(
            Texts.t("events.reading"),
            () -> eventsOut.parked(OperatorSession.currentName(), LIMIT));
    if (read.isEmpty()) {
      events.setItems(List.of());
      deliveries.setItems(List.of());
      endpoints.setItems(List.of());
      for (Span count : List.of(eventsCount, deliveriesCount, endpointsCount)) {
        count.setText(Texts.t("events.count.unread"));
      }
      return;
    }
    EventsOut.Parked parked = read.get();
    List<ParkedEvent> parkedEvents = orEmpty(parked.events());
    List<WebhookDelivery> parkedDeliveries = orEmpty(parked.deliveries());
    List<DisabledEndpoint> disabled = orEmpty(parked.disabledEndpoints());
    events.setItems(parkedEvents);
    deliveries.setItems(parkedDeliveries);
    endpoints.setItems(disabled);
    eventsCount.setText(count(parkedEvents.size(), LIMIT));
    deliveriesCount.setText(count(parkedDeliveries.size(), LIMIT));
    // The service lists every disabled endpoint: there is no limit to reach.
    endpointsCount.setText(count(disabled.size(), Integer.MAX_VALUE));
  }

  private static <T> List<T> orEmpty(List<T> rows) {
    return rows == null ? List.of() : rows;
  }

  /** How many rows are shown, and whether more may wait beyond the limit of one read. */
  static String count(int shown, int limit) {
    if (shown == 0) {
      return Texts.t("events.count.none");
    }
    return Texts.t(shown >= limit ? "events.count.limit" : "events.count.some", shown);
  }

  /**
   * The attempts of the selected delivery, from its event's deliveries (one per endpoint): an
   * audited read when a delivery is selected, none when the selection is cleared.
   */
  private void showAttempts(Optional<WebhookDelivery> selected) {
    if (selected.isEmpty()) {
      attemptsTitle.setText(Texts.t("events.attempts.select"));
      attempts.setItems(List.of());
      attempts.setVisible(false);
      return;
    }
    WebhookDelivery delivery = selected.get();
    attemptsTitle.setText(
        Texts.t("events.attempts.of", delivery.id(), Formats.text(delivery.endpoint())));
    List<DeliveryAttempt> found =
        Notices.call(
                Texts.t("events.attempts.reading"),
                () -> eventsOut.deliveriesOf(OperatorSession.currentName(), delivery.eventId()))
            .orElse(List.of())
            .stream()
            .filter(h -> h.delivery() != null && delivery.id().equals(h.delivery().id()))
            .findFirst()
            .map(DeliveryHistory::attempts)
            .map(EventsOutView::orEmpty)
            .orElse(List.of());
    attempts.setItems(found);
    attempts.setVisible(true);
  }

  void retryEvent() {
    Optional<ParkedEvent> selected = events.getSelectedItems().stream().findFirst();
    if (selected.isEmpty()) {
      Notices.error(Texts.t("events.select-event"));
      return;
    }
    String eventId = selected.get().event().id();
    act(
        Texts.t("events.retry-event"),
        () -> eventsOut.retryEvent(OperatorSession.currentName(), eventId));
  }

  void retryDelivery() {
    Optional<WebhookDelivery> selected = deliveries.getSelectedItems().stream().findFirst();
    if (selected.isEmpty()) {
      Notices.error(Texts.t("events.select-delivery"));
      return;
    }
    String deliveryId = selected.get().id();
    act(
        Texts.t("events.retry-delivery"),
        () -> eventsOut.retryDelivery(OperatorSession.currentName(), deliveryId));
  }

  /**
   * Enabling resumes sending at once to an address that said it was gone, every waiting delivery
   * together: the operator confirms first, with the endpoint and the reason it was disabled
   * restated.
   */
  void enableEndpoint() {
    Optional<DisabledEndpoint> selected = endpoints.getSelectedItems().stream().findFirst();
    if (selected.isEmpty()) {
      Notices.error(Texts.t("events.select-endpoint"));
      return;
    }
    DisabledEndpoint endpoint = selected.get();
    ConfirmDialog confirm = new ConfirmDialog();
    confirm.setId("enable-endpoint-dialog");
    confirm.setHeader(Texts.t("events.enable.header", endpoint.endpoint()));
    confirm.setText(
        Texts.t("events.enable.text", endpoint.endpoint(), Formats.text(endpoint.reason())));
    Button yes = new Button(Texts.t("events.enable-endpoint"), e -> confirm.close());
    yes.setId("enable-endpoint-confirm-button");
    yes.addThemeVariants(ButtonVariant.LUMO_PRIMARY);
    yes.addClickListener(
        e ->
            act(
                Texts.t("events.enable-endpoint"),
                () ->
                    eventsOut.enableEndpoint(OperatorSession.currentName(), endpoint.endpoint())));
    confirm.setConfirmButton(yes);
    confirm.setCancelable(true);
    Button no = new Button(Texts.t("dialog.cancel"), e -> confirm.close());
    no.setId("enable-endpoint-cancel-button");
    confirm.setCancelButton(no);
    confirm.open();
  }

  /** Calls an action, shows its result at once (refused in red) and reads everything again. */
  private void act(String what, Supplier<ActionResult> call) {
    Notices.call(what, call).ifPresent(Notices::result);
    refresh();
  }
}
