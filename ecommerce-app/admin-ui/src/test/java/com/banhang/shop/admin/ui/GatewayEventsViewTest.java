package com.banhang.shop.admin.ui;

import static com.github.mvysny.kaributesting.v10.LocatorJ._click;
import static com.github.mvysny.kaributesting.v10.LocatorJ._find;
import static com.github.mvysny.kaributesting.v10.LocatorJ._get;
import static com.github.mvysny.kaributesting.v10.LocatorJ._setValue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.atLeastOnce;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import com.banhang.shop.admin.application.ActionResult;
import com.banhang.shop.payments.api.GatewayEventView;
import com.github.mvysny.kaributesting.v10.GridKt;
import com.vaadin.flow.component.UI;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.dialog.Dialog;
import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.html.Anchor;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.notification.NotificationVariant;
import com.vaadin.flow.component.select.Select;
import com.vaadin.flow.component.sidenav.SideNav;
import com.vaadin.flow.component.sidenav.SideNavItem;
import com.vaadin.flow.component.textfield.TextArea;
import com.vaadin.flow.component.textfield.TextField;
import com.vaadin.flow.router.RouteConfiguration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Gateway events view: what the processor sent, what waits, and what the operator does. */
class GatewayEventsViewTest extends ConsoleTestBase {

  private static final Instant RECEIVED = Instant.now().truncatedTo(ChronoUnit.SECONDS);
  private static final String REASON = "checked ch_2 at the processor: refunded it there";
  private static final String VERIFIED =
      "signature verified with secret 2 of 2, signed at 2026-12-07T03:00:00Z";

  private final GatewayEventView flagged = event("evt_2", "FLAGGED", "p-2", null);
  private final GatewayEventView parked = event("evt_3", "PARKED", null, null);
  private final GatewayEventView settled = event("evt_1", "SETTLED", "p-1", null);
  private final GatewayEventView handled = event("evt_4", "FLAGGED", "p-4", "carol");

  @BeforeEach
  void operator() {
    loginAs("operator");
  }

  private static GatewayEventView event(
      String eventId, String status, String paymentId, String handledBy) {
    return new GatewayEventView(
        "sandbox",
        eventId,
        "charge.succeeded",
        "ch_" + eventId,
        "gk_" + eventId,
        paymentId,
        status,
        "detail of " + eventId,
        VERIFIED,
        2,
        1,
        RECEIVED,
        RECEIVED,
        RECEIVED,
        handledBy,
        handledBy == null ? null : "accepted at the processor [ticket INC-7]");
  }

  /** What waits by default; every event with "All events". */
  private void stubRows() {
    List<GatewayEventView> waiting = List.of(flagged, parked);
    List<GatewayEventView> all = List.of(handled, flagged, parked, settled);
    when(gatewayEvents.count("NEEDING_OPERATOR")).thenReturn((long) waiting.size());
    when(gatewayEvents.count("ALL")).thenReturn((long) all.size());
    when(gatewayEvents.page(anyString(), eq("NEEDING_OPERATOR"), anyInt(), anyInt()))
        .thenAnswer(pagedFrom(waiting));
    when(gatewayEvents.page(anyString(), eq("ALL"), anyInt(), anyInt())).thenAnswer(pagedFrom(all));
    when(gatewayEvents.countFlaggedUnhandled()).thenReturn(1L);
    when(gatewayEvents.countParked()).thenReturn(1L);
  }

  /** As {@link #paged}, for page(operator, filter, offset, limit). */
  private static org.mockito.stubbing.Answer<List<GatewayEventView>> pagedFrom(
      List<GatewayEventView> all) {
    return invocation -> {
      int offset = invocation.getArgument(2);
      int limit = invocation.getArgument(3);
      return all.subList(Math.min(offset, all.size()), Math.min(all.size(), offset + limit));
    };
  }

  @SuppressWarnings("unchecked")
  private static Grid<GatewayEventView> grid() {
    return _get(Grid.class, s -> s.withId("gateway-events-grid"));
  }

  private static Button button(String id) {
    return _get(Button.class, s -> s.withId(id));
  }

  private static boolean dialogOpen() {
    return _find(Dialog.class).stream().anyMatch(Dialog::isOpened);
  }

  @Test
  void itOpensOnWhatWaitsForAnOperator_readUnderTheOperatorsName_withEveryColumn() {
    stubRows();

    navigate(GatewayEventsView.class);

    Grid<GatewayEventView> grid = grid();
    assertThat(GridKt._size(grid)).isEqualTo(2);
    verify(gatewayEvents, atLeastOnce())
        .page(eq("operator"), eq("NEEDING_OPERATOR"), anyInt(), anyInt());
    assertThat(GridKt._getFormattedRow(grid, 0))
        .containsSubsequence(
            Formats.instant(RECEIVED), "sandbox", "evt_2", "charge.succeeded", "ch_evt_2")
        .containsSubsequence("FLAGGED", VERIFIED, "2", "1", "detail of evt_2", Formats.NONE);
    assertThat(_get(Span.class, s -> s.withId("gateway-events-waiting")).getText())
        .isEqualTo("Needing an operator: 1 flagged, 1 parked");
    @SuppressWarnings("unchecked")
    Select<String> filter = _get(Select.class, s -> s.withId("gateway-events-filter"));
    assertThat(filter.getValue()).isEqualTo("NEEDING_OPERATOR");
  }

  @Test
  void thePaymentColumnLinksToThePaymentPage_andSaysSoWhenThereIsNone() {
    stubRows();
    navigate(GatewayEventsView.class);

    Anchor link = (Anchor) GridKt._getCellComponent(grid(), 0, "payment");
    assertThat(link.getText()).isEqualTo("p-2");
    assertThat(link.getHref()).isEqualTo(PaymentView.link("p-2"));
    assertThat(((Span) GridKt._getCellComponent(grid(), 1, "payment")).getText())
        .isEqualTo(Formats.NONE);
  }

  @Test
  @SuppressWarnings("unchecked")
  void allEvents_showsTheHandledOnes_withWhoAndWhy() {
    stubRows();
    navigate(GatewayEventsView.class);

    _setValue(_get(Select.class, s -> s.withId("gateway-events-filter")), "ALL");

    assertThat(GridKt._size(grid())).isEqualTo(4);
    verify(gatewayEvents, atLeastOnce()).page(eq("operator"), eq("ALL"), anyInt(), anyInt());
    assertThat(GridKt._getFormattedRow(grid(), 0))
        .contains("by carol: accepted at the processor [ticket INC-7]");
  }

  @Test
  void retry_isOfferedOnAParkedRowOnly_andMarkHandled_onAnUnhandledFlaggedRowOnly() {
    stubRows();
    navigate(GatewayEventsView.class);
    assertThat(button("gateway-event-retry-button").isEnabled()).isFalse();
    assertThat(button("gateway-event-handled-button").isEnabled()).isFalse();

    grid().select(parked);
    assertThat(button("gateway-event-retry-button").isEnabled()).isTrue();
    assertThat(button("gateway-event-handled-button").isEnabled()).isFalse();

    grid().select(flagged);
    assertThat(button("gateway-event-retry-button").isEnabled()).isFalse();
    assertThat(button("gateway-event-handled-button").isEnabled()).isTrue();

    grid().select(handled);
    assertThat(button("gateway-event-handled-button").isEnabled()).isFalse();
    grid().select(settled);
    assertThat(button("gateway-event-retry-button").isEnabled()).isFalse();
    assertThat(button("gateway-event-handled-button").isEnabled()).isFalse();
  }

  @Test
  void retryingTheSelectedParkedEvent_callsTheActionWithItsKey_showsTheResult_andReadsAgain() {
    stubRows();
    when(actions.retryGatewayEvent("operator", "sandbox", "evt_3"))
        .thenReturn(ActionResult.done("gateway event evt_3 retried: now SETTLED"));
    navigate(GatewayEventsView.class);
    grid().select(parked);

    _click(button("gateway-event-retry-button"));

    verify(actions).retryGatewayEvent("operator", "sandbox", "evt_3");
    assertThat(notificationTexts()).contains("DONE: gateway event evt_3 retried: now SETTLED");
    assertThat(grid().getSelectedItems()).isEmpty();
    assertThat(button("gateway-event-retry-button").isEnabled()).isFalse();
  }

  @Test
  void markHandled_restatesTheEvent_andSendsTheReasonWithTheTicket() {
    stubRows();
    when(actions.markGatewayEventHandled(
            "operator", "sandbox", "evt_2", REASON + " [ticket INC-42]"))
        .thenReturn(ActionResult.done("gateway event evt_2 marked handled by operator"));
    navigate(GatewayEventsView.class);
    grid().select(flagged);

    _click(button("gateway-event-handled-button"));
    assertThat(_get(Dialog.class, s -> s.withId("gateway-event-handled-dialog")).isOpened())
        .isTrue();
    assertThat(_find(Span.class).stream().map(Span::getText).toList())
        .contains("sandbox", "charge.succeeded", "ch_evt_2", "p-2", VERIFIED, "detail of evt_2");
    _setValue(_get(TextArea.class, s -> s.withId("reason-field")), REASON);
    _setValue(_get(TextField.class, s -> s.withId("ticket-field")), "INC-42");
    _click(button("confirm-button"));

    verify(actions)
        .markGatewayEventHandled("operator", "sandbox", "evt_2", REASON + " [ticket INC-42]");
    assertThat(notificationTexts())
        .contains("DONE: gateway event evt_2 marked handled by operator");
    assertThat(dialogOpen()).isFalse();
  }

  @Test
  void aReasonTooShort_isRefusedInTheUi_andNothingIsCalled() {
    stubRows();
    navigate(GatewayEventsView.class);
    grid().select(flagged);
    _click(button("gateway-event-handled-button"));

    _setValue(_get(TextArea.class, s -> s.withId("reason-field")), "refunded");
    _setValue(_get(TextField.class, s -> s.withId("ticket-field")), "INC-42");
    _click(button("confirm-button"));

    assertThat(_get(TextArea.class, s -> s.withId("reason-field")).isInvalid()).isTrue();
    assertThat(dialogOpen()).isTrue();
    verify(actions, never()).markGatewayEventHandled(any(), any(), any(), any());
  }

  @Test
  void theServicesRefusal_isShownAsItSaysIt() {
    stubRows();
    when(actions.markGatewayEventHandled(anyString(), anyString(), anyString(), anyString()))
        .thenReturn(
            ActionResult.refused(
                "gateway event evt_2 was already handled by carol (ok); nothing changed"));
    navigate(GatewayEventsView.class);
    grid().select(flagged);
    _click(button("gateway-event-handled-button"));
    _setValue(_get(TextArea.class, s -> s.withId("reason-field")), REASON);
    _setValue(_get(TextField.class, s -> s.withId("ticket-field")), "INC-42");

    _click(button("confirm-button"));

    assertThat(notificationTexts())
        .contains(
            "REFUSED: gateway event evt_2 was already handled by carol (ok); nothing changed");
    assertThat(notifications().get(notifications().size() - 1).getThemeNames())
        .contains(NotificationVariant.LUMO_ERROR.getVariantName());
  }

  @Test
  void aFailingServiceShowsAnErrorAndAnEmptyGrid() {
    when(gatewayEvents.count(anyString())).thenThrow(new IllegalStateException("database down"));

    navigate(GatewayEventsView.class);

    assertThat(notificationTexts()).anyMatch(t -> t.contains("database down"));
    assertThat(GridKt._size(grid())).isZero();
  }

  @Test
  void anAnonymousVisitorIsSentToTheLoginPage_andNothingIsReadOrAudited() {
    com.vaadin.flow.server.VaadinSession.getCurrent().setAttribute(OperatorSession.class, null);

    UI.getCurrent().navigate(GatewayEventsView.class);

    assertThat(UI.getCurrent().getCurrentView()).isInstanceOf(LoginView.class);
    verifyNoInteractions(gatewayEvents);
  }

  @Test
  void theSideNavigationLeadsToTheView_atGatewayEvents() {
    stubRows();
    GatewayEventsView view = navigate(GatewayEventsView.class);

    assertThat(RouteConfiguration.forApplicationScope().getUrl(GatewayEventsView.class))
        .isEqualTo("gateway-events");
    SideNavItem item =
        _get(SideNav.class, s -> s.withId("side-nav")).getItems().stream()
            .filter(i -> "Gateway events".equals(i.getLabel()))
            .findFirst()
            .orElseThrow();
    assertThat(item.getPath()).isEqualTo("gateway-events");
    assertThat(view.getPageTitle()).isEqualTo("Gateway events | BanHang operator console");
  }
}
