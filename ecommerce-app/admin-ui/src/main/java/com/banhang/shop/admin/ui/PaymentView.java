package com.banhang.shop.admin.ui;

import com.banhang.shop.admin.application.ActionResult;
import com.banhang.shop.admin.application.KeyRef;
import com.banhang.shop.admin.application.OperatorActions;
import com.banhang.shop.admin.application.PaymentPage;
import com.banhang.shop.admin.application.PaymentPages;
import com.banhang.shop.admin.application.StuckOperation;
import com.banhang.shop.admin.application.StuckOperationDetail;
import com.banhang.shop.payments.api.GatewayEventView;
import com.banhang.shop.payments.api.GatewayLookup.GatewayAnswer;
import com.banhang.shop.payments.api.PaymentRecord;
import com.banhang.shop.payments.api.TimelineEntry;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.formlayout.FormLayout;
import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.grid.GridVariant;
import com.vaadin.flow.component.html.Anchor;
import com.vaadin.flow.component.html.H2;
import com.vaadin.flow.component.html.H3;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.orderedlayout.HorizontalLayout;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.router.BeforeEnterEvent;
import com.vaadin.flow.router.BeforeEnterObserver;
import com.vaadin.flow.router.HasDynamicTitle;
import com.vaadin.flow.router.Route;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * One payment, the page an operator pastes into a ticket (docs/operations.md, "The payment page"):
 * what the shop recorded, the key's state, its whole timeline oldest first, the gateway's view on
 * request, and the actions that are meaningful now. Its address is {@code payments/<payment id>}.
 */
@Route(value = "payments/:" + PaymentView.PARAMETER, layout = MainLayout.class)
public class PaymentView extends VerticalLayout implements BeforeEnterObserver, HasDynamicTitle {

  static final String PARAMETER = "paymentId";

  private final PaymentPages pages;
  private final OperatorActions actions;

  private final H2 title = new H2();
  private final VerticalLayout content = new VerticalLayout();
  private final VerticalLayout gatewayPanel = new VerticalLayout();
  final Grid<TimelineEntry> timeline = new Grid<>();
  final Grid<GatewayEventView> gatewayEvents = new Grid<>();
  final Button askGateway = new Button(Texts.t("payment.ask-gateway"), e -> askGateway());
  final Button reconcile = new Button(Texts.t("payment.reconcile"), e -> reconcile());
  final Button resolveCharged =
      new Button(Texts.t("payment.resolve-charged"), e -> resolveAsCharged());
  final Button resolveNotCharged =
      new Button(Texts.t("payment.resolve-not-charged"), e -> resolveAsNotCharged());

  private String paymentId;
  private PaymentPage page;

  @jakarta.inject.Inject
  public PaymentView(PaymentPages pages, OperatorActions actions) {
    this.pages = pages;
    this.actions = actions;
    setWidthFull();
    title.setId("payment-title");
    content.setPadding(false);
    content.setId("payment-content");
    gatewayPanel.setId("gateway-answer");
    gatewayPanel.setPadding(false);
    askGateway.setId("ask-gateway-button");
    reconcile.setId("payment-reconcile-button");
    resolveCharged.setId("payment-resolve-charged-button");
    resolveNotCharged.setId("payment-resolve-not-charged-button");
    resolveNotCharged.addThemeVariants(ButtonVariant.LUMO_ERROR);

    timeline.setId("timeline-grid");
    timeline.addThemeVariants(GridVariant.LUMO_COMPACT, GridVariant.LUMO_WRAP_CELL_CONTENT);
    timeline
        .addColumn(e -> Formats.instant(e.at()))
        .setTooltipGenerator(e -> Formats.utc(e.at()))
        .setHeader(Texts.t("payment.timeline.when"))
        .setWidth("13em")
        .setFlexGrow(0);
    // Fixed widths: the rows arrive after the first render, so auto widths would fit the headers
    // only and leave the detail, the column that says what happened, a sliver.
    timeline
        .addColumn(TimelineEntry::kind)
        .setHeader(Texts.t("payment.timeline.what"))
        .setWidth("15em")
        .setFlexGrow(0);
    timeline
        .addColumn(TimelineEntry::actor)
        .setHeader(Texts.t("payment.timeline.who"))
        .setWidth("9em")
        .setFlexGrow(0);
    timeline
        .addColumn(TimelineEntry::detail)
        .setHeader(Texts.t("payment.timeline.detail"))
        .setFlexGrow(1);
    timeline.setAllRowsVisible(true);
    gatewayEventsGrid();
    add(title, content);
  }

  @Override
  public String getPageTitle() {
    return Texts.title("payment.title");
  }

  /** The address of a payment's page, relative to the console. */
  static String link(String paymentId) {
    return "payments/" + URLEncoder.encode(paymentId, StandardCharsets.UTF_8).replace("+", "%20");
  }

  @Override
  public void beforeEnter(BeforeEnterEvent event) {
    paymentId = event.getRouteParameters().get(PARAMETER).orElse("");
    render();
  }

  private void render() {
    content.removeAll();
    gatewayPanel.removeAll();
    Optional<PaymentPage> found =
        Notices.call(Texts.t("payment.reading"), () -> pages.page(paymentId))
            .orElse(Optional.empty());
    page = found.orElse(null);
    if (page == null) {
      title.setText(Texts.t("payment.heading.id", paymentId));
      Span none = new Span(Texts.t("payment.not-found", paymentId));
      none.setId("payment-not-found");
      content.add(none);
      return;
    }
    PaymentRecord p = page.payment();
    title.setText(
        Texts.t("payment.heading", Formats.money(p.amount(), p.currency()), p.tenantId()));

    FormLayout shop = new FormLayout();
    shop.setId("payment-summary");
    shop.setResponsiveSteps(new FormLayout.ResponsiveStep("0", 3));
    field(shop, Texts.t("payment.customer"), p.tenantId(), "payment-customer");
    field(shop, Texts.t("payment.order"), p.orderId(), "payment-order");
    field(
        shop, Texts.t("payment.amount"), Formats.money(p.amount(), p.currency()), "payment-amount");
    field(shop, Texts.t("payment.status"), p.status(), "payment-status");
    field(shop, Texts.t("payment.gateway-key"), p.gatewayKey(), "payment-gateway-key");
    field(
        shop,
        Texts.t("payment.gateway-charge"),
        Formats.text(p.gatewayChargeId()),
        "payment-charge");
    field(shop, Texts.t("payment.key"), p.idempotencyKey(), "payment-key");
    field(shop, Texts.t("payment.attempt"), Integer.toString(p.attempt()), null);
    field(shop, Texts.t("payment.late-charge"), Formats.text(p.lateCharge()), null);
    shop.addFormItem(Formats.time(p.createdAt()), Texts.t("payment.created"));
    shop.addFormItem(Formats.time(p.updatedAt()), Texts.t("payment.updated"));
    field(shop, Texts.t("payment.id"), p.paymentId(), "payment-id");

    HorizontalLayout links = new HorizontalLayout();
    Anchor keyLink = new Anchor(KeyLookupView.link(page.keyRef()), Texts.t("payment.key-link"));
    keyLink.setId("payment-key-link");
    Anchor orderLink = new Anchor(OrderView.link(p.orderId()), Texts.t("payment.order-link"));
    orderLink.setId("payment-order-link");
    links.add(keyLink, orderLink);

    content.add(new H3(Texts.t("payment.recorded")), shop, links, keyState(page.key()));

    reconcile.setEnabled(page.key().isPresent());
    resolveCharged.setEnabled(page.resolvable());
    resolveNotCharged.setEnabled(page.resolvable());
    HorizontalLayout buttons =
        new HorizontalLayout(askGateway, reconcile, resolveCharged, resolveNotCharged);
    content.add(buttons);
    if (page.key().isPresent() && !page.resolvable()) {
      Span why = new Span(Texts.t("payment.resolve-not-offered"));
      why.setId("payment-resolve-not-offered");
      content.add(why);
    }
    content.add(gatewayPanel);

    timeline.setItems(page.timeline());
    content.add(new H3(Texts.t("payment.timeline")), timeline);

    // Beside the timeline, which has each event's processing as a GATEWAY_EVENT entry: what the
    // processor said, how its signature was verified, and where its processing stands.
    List<GatewayEventView> received =
        page.gatewayEvents() == null ? List.of() : page.gatewayEvents();
    gatewayEvents.setItems(received);
    gatewayEvents.setVisible(!received.isEmpty());
    content.add(new H3(Texts.t("payment.gateway-events")));
    if (received.isEmpty()) {
      Span none = new Span(Texts.t("payment.gateway-events.none"));
      none.setId("payment-gateway-events-none");
      content.add(none);
    }
    content.add(gatewayEvents);
  }

  /**
   * The payment's gateway events: the same columns as the Gateway events view, less the payment.
   */
  private void gatewayEventsGrid() {
    gatewayEvents.setId("payment-gateway-events-grid");
    gatewayEvents.addThemeVariants(GridVariant.LUMO_COMPACT, GridVariant.LUMO_WRAP_CELL_CONTENT);
    gatewayEvents
        .addColumn(e -> Formats.instant(e.receivedAt()))
        .setTooltipGenerator(e -> Formats.utc(e.receivedAt()))
        .setHeader(Texts.t("gateway-events.column.received"))
        .setWidth("13em")
        .setFlexGrow(0);
    gatewayEvents
        .addColumn(GatewayEventView::type)
        .setHeader(Texts.t("gateway-events.column.type"))
        .setWidth("11em")
        .setFlexGrow(0);
    gatewayEvents
        .addColumn(e -> e.provider() + "/" + e.eventId())
        .setHeader(Texts.t("gateway-events.column.event"))
        .setWidth("14em")
        .setFlexGrow(0);
    gatewayEvents
        .addColumn(GatewayEventView::status)
        .setHeader(Texts.t("gateway-events.column.status"))
        .setWidth("8em")
        .setFlexGrow(0);
    gatewayEvents
        .addColumn(e -> Formats.text(e.verification()))
        .setHeader(Texts.t("gateway-events.column.verification"))
        .setFlexGrow(1);
    gatewayEvents
        .addColumn(e -> Formats.text(e.detail()))
        .setHeader(Texts.t("gateway-events.column.detail"))
        .setFlexGrow(1);
    gatewayEvents
        .addColumn(GatewayEventsView::handled)
        .setHeader(Texts.t("gateway-events.column.handled"))
        .setWidth("12em")
        .setFlexGrow(0);
    gatewayEvents.setAllRowsVisible(true);
  }

  private VerticalLayout keyState(Optional<StuckOperationDetail> key) {
    VerticalLayout state = new VerticalLayout();
    state.setPadding(false);
    state.setId("payment-key-state");
    if (key.isEmpty()) {
      state.add(new Span(Texts.t("payment.key-settled")));
      return state;
    }
    StuckOperation op = key.get().operation();
    FormLayout form = new FormLayout();
    form.setResponsiveSteps(new FormLayout.ResponsiveStep("0", 3));
    field(
        form,
        Texts.t("payment.key.state"),
        Texts.t(
            op.outcomeUnknown()
                ? "payment.key.processing.outcome-unknown"
                : "payment.key.processing"),
        "key-state");
    field(form, Texts.t("payment.key.age"), Formats.age(op.age()), null);
    field(
        form,
        Texts.t("payment.key.lease-until"),
        Texts.t(
            op.leaseExpired() ? "payment.key.lease.expired" : "payment.key.lease.held",
            Formats.instant(op.lockedUntil())),
        null);
    field(form, Texts.t("payment.key.last-check"), Formats.text(op.lastCheck()), "key-last-check");
    form.addFormItem(Formats.time(op.lastCheckedAt()), Texts.t("payment.key.checked-at"));
    field(
        form, Texts.t("payment.key.gateway-said"), Formats.text(key.get().lastCheckDetail()), null);
    Anchor stuckRow =
        new Anchor(StuckOperationsView.link(op.ref()), Texts.t("payment.key.stuck-link"));
    stuckRow.setId("payment-stuck-link");
    state.add(new H3(Texts.t("payment.key.stuck")), form, stuckRow);
    return state;
  }

  void askGateway() {
    String operator = OperatorSession.currentName();
    Notices.call(Texts.t("payment.asking-gateway"), () -> actions.askGateway(operator, paymentId))
        .ifPresent(this::showGatewayAnswer);
  }

  private void showGatewayAnswer(GatewayAnswer answer) {
    gatewayPanel.removeAll();
    FormLayout form = new FormLayout();
    form.setResponsiveSteps(new FormLayout.ResponsiveStep("0", 3));
    field(form, Texts.t("payment.gateway.says"), answer.finding().name(), "gateway-finding");
    field(
        form, Texts.t("payment.gateway.charge"), Formats.text(answer.chargeId()), "gateway-charge");
    field(
        form,
        Texts.t("payment.gateway.amount"),
        answer.currency() == null
            ? Formats.NONE
            : Formats.money(answer.amount(), answer.currency()),
        null);
    field(form, Texts.t("payment.gateway.order"), Formats.text(answer.orderReference()), null);
    form.addFormItem(Formats.time(answer.askedAt()), Texts.t("payment.gateway.asked-at"));
    field(form, Texts.t("payment.gateway.detail"), Formats.text(answer.detail()), "gateway-detail");
    gatewayPanel.add(new H3(Texts.t("payment.gateway")), form);
  }

  void reconcile() {
    if (page == null) {
      return;
    }
    KeyRef ref = page.keyRef();
    act(
        Texts.t("payment.reconciling"),
        () -> actions.reconcile(OperatorSession.currentName(), List.of(ref)));
  }

  void resolveAsCharged() {
    if (page == null) {
      return;
    }
    KeyRef ref = page.keyRef();
    new ResolveDialog(
            Texts.t("payment.resolve-charged.title", paymentId),
            true,
            restatement(),
            (chargeId, reason) -> {
              String operator = OperatorSession.currentName();
              Optional<ActionResult> result =
                  act(
                      Texts.t("payment.resolve-charged"),
                      () -> actions.resolveAsCharged(operator, ref, chargeId, reason, false));
              if (result.isPresent()
                  && result.get().status() == ActionResult.Status.CONFIRMATION_NEEDED) {
                new OverrideDialog(
                        result.get().message(),
                        () ->
                            act(
                                Texts.t("payment.resolve-charged.override"),
                                () ->
                                    actions.resolveAsCharged(
                                        operator, ref, chargeId, reason, true)))
                    .open();
              }
              return result.isPresent();
            })
        .open();
  }

  void resolveAsNotCharged() {
    if (page == null) {
      return;
    }
    KeyRef ref = page.keyRef();
    new ResolveDialog(
            Texts.t("payment.resolve-not-charged.title", paymentId),
            false,
            restatement(),
            (chargeId, reason) ->
                act(
                        Texts.t("payment.resolve-not-charged"),
                        () ->
                            actions.resolveAsNotCharged(OperatorSession.currentName(), ref, reason))
                    .isPresent())
        .open();
  }

  private ResolveDialog.Restatement restatement() {
    PaymentRecord p = page.payment();
    return new ResolveDialog.Restatement(
        p.tenantId(),
        p.orderId(),
        Formats.money(p.amount(), p.currency()),
        page.lastGatewayAnswer());
  }

  /** Calls an action, shows its result at once and re-reads the page. */
  private Optional<ActionResult> act(String what, Supplier<ActionResult> call) {
    return Notices.act(what, call, this::render);
  }

  private static void field(FormLayout form, String label, String value, String id) {
    Span span = Formats.value(value);
    if (id != null) {
      span.setId(id);
    }
    form.addFormItem(span, label);
  }
}
