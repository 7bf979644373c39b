package com.banhang.shop.admin.ui;

import static com.github.mvysny.kaributesting.v10.LocatorJ._click;
import static com.github.mvysny.kaributesting.v10.LocatorJ._find;
import static com.github.mvysny.kaributesting.v10.LocatorJ._get;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import com.banhang.events.OutboxEvent;
import com.banhang.events.OutboxStore.ParkedEvent;
import com.banhang.events.webhooks.DeliveryAttempt;
import com.banhang.events.webhooks.DeliveryHistory;
import com.banhang.events.webhooks.DeliveryStatus;
import com.banhang.events.webhooks.DisabledEndpoint;
import com.banhang.events.webhooks.WebhookDelivery;
import com.banhang.shop.admin.application.ActionResult;
import com.banhang.shop.admin.application.EventsOut;
import com.github.mvysny.kaributesting.v10.GridKt;
import com.vaadin.flow.component.UI;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.confirmdialog.ConfirmDialog;
import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.html.H4;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.notification.NotificationVariant;
import com.vaadin.flow.component.sidenav.SideNav;
import com.vaadin.flow.component.sidenav.SideNavItem;
import com.vaadin.flow.router.RouteConfiguration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Events out view: what waits for an operator, and putting it back in line. */
class EventsOutViewTest extends ConsoleTestBase {

  private static final Instant CREATED = Instant.now().truncatedTo(ChronoUnit.SECONDS);
  private static final Instant PARKED = CREATED.plusSeconds(3600);

  private final ParkedEvent orderPlaced =
      new ParkedEvent(
          new OutboxEvent(
              "ev-1", "order", "order-42", 3, "OrderPlaced", "alice", "{}", CREATED, 12),
          "kafka: broker unreachable",
          PARKED);
  private final WebhookDelivery toCrm =
      new WebhookDelivery(
          "wd-1",
          "ev-2",
          "crm",
          "alice",
          DeliveryStatus.PARKED,
          8,
          null,
          503,
          "HTTP 503 Service Unavailable",
          CREATED,
          null);
  private final WebhookDelivery refused =
      new WebhookDelivery(
          "wd-2",
          "ev-3",
          "intranet",
          "bob",
          DeliveryStatus.PARKED,
          1,
          null,
          null,
          "refused target: private address",
          CREATED,
          null);
  private final DisabledEndpoint gone = new DisabledEndpoint("erp", PARKED, "410 Gone");

  @BeforeEach
  void operator() {
    loginAs("operator");
  }

  private void stubParked() {
    when(eventsOut.parked("operator", EventsOutView.LIMIT))
        .thenReturn(
            new EventsOut.Parked(List.of(orderPlaced), List.of(toCrm, refused), List.of(gone)));
  }

  @SuppressWarnings("unchecked")
  private static <T> Grid<T> grid(String id) {
    return _get(Grid.class, s -> s.withId(id));
  }

  private static void click(String id) {
    _click(_get(Button.class, s -> s.withId(id)));
  }

  private static String spanText(String id) {
    return _get(Span.class, s -> s.withId(id)).getText();
  }

  private static String lastNotificationTheme() {
    return String.join(" ", notifications().get(notifications().size() - 1).getThemeNames());
  }

  @Test
  void listsWhatTheServiceReturns_fromOneReadUnderTheOperatorsName() {
    stubParked();

    navigate(EventsOutView.class);

    verify(eventsOut, times(1)).parked("operator", EventsOutView.LIMIT);
    Grid<ParkedEvent> events = grid("events-parked-grid");
    assertThat(GridKt._size(events)).isEqualTo(1);
    assertThat(GridKt._getFormattedRow(events, 0))
        .containsExactly(
            Formats.instant(PARKED),
            "OrderPlaced",
            "order order-42",
            "3",
            "alice",
            "12",
            "kafka: broker unreachable");
    assertThat(events.getColumns().get(0).getTooltipGenerator().apply(orderPlaced))
        .as("UTC on hover")
        .isEqualTo(Formats.utc(PARKED));

    Grid<WebhookDelivery> deliveries = grid("deliveries-parked-grid");
    assertThat(GridKt._size(deliveries)).isEqualTo(2);
    assertThat(GridKt._getFormattedRow(deliveries, 0))
        .containsExactly(
            Formats.instant(CREATED),
            "crm",
            "alice",
            "ev-2",
            "8",
            "503",
            "HTTP 503 Service Unavailable");
    assertThat(GridKt._getFormattedRow(deliveries, 1))
        .as("no answer came: no status")
        .containsExactly(
            Formats.instant(CREATED),
            "intranet",
            "bob",
            "ev-3",
            "1",
            Formats.NONE,
            "refused target: private address");

    Grid<DisabledEndpoint> endpoints = grid("endpoints-disabled-grid");
    assertThat(GridKt._size(endpoints)).isEqualTo(1);
    assertThat(GridKt._getFormattedRow(endpoints, 0))
        .containsExactly("erp", Formats.instant(PARKED), "410 Gone");

    assertThat(spanText("events-parked-count")).isEqualTo("1 waiting, oldest first.");
    assertThat(spanText("deliveries-parked-count")).isEqualTo("2 waiting, oldest first.");
    assertThat(spanText("endpoints-disabled-count")).isEqualTo("1 waiting, oldest first.");
    // Nothing is read about a delivery until one is selected.
    verify(eventsOut, never()).deliveriesOf(anyString(), anyString());
    assertThat(notifications()).isEmpty();

    click("refresh-button");
    verify(eventsOut, times(2)).parked("operator", EventsOutView.LIMIT);
  }

  @Test
  void aFullReadSaysThatMoreMayWait_andNothingSaysNothingWaits() {
    List<ParkedEvent> hundred = new ArrayList<>();
    for (int i = 0; i < EventsOutView.LIMIT; i++) {
      OutboxEvent event =
          new OutboxEvent(
              "ev-" + i, "order", "order-" + i, 1, "OrderPlaced", "alice", "{}", CREATED, 12);
      hundred.add(new ParkedEvent(event, "broker down", PARKED));
    }
    when(eventsOut.parked("operator", EventsOutView.LIMIT))
        .thenReturn(new EventsOut.Parked(hundred, List.of(), List.of()));

    navigate(EventsOutView.class);

    assertThat(GridKt._size(grid("events-parked-grid"))).isEqualTo(EventsOutView.LIMIT);
    assertThat(spanText("events-parked-count"))
        .isEqualTo("The oldest 100: more may wait behind them. Deal with these, then refresh.");
    assertThat(spanText("deliveries-parked-count")).isEqualTo("Nothing waits.");
    assertThat(spanText("endpoints-disabled-count")).isEqualTo("Nothing waits.");
  }

  @Test
  void retryingTheSelectedEvent_callsTheServiceWithItsId_showsTheResult_andReadsAgain() {
    stubParked();
    when(eventsOut.retryEvent("operator", "ev-1"))
        .thenReturn(ActionResult.done("event ev-1 is due again"));
    navigate(EventsOutView.class);

    grid("events-parked-grid").select(orderPlaced);
    click("retry-event-button");

    verify(eventsOut).retryEvent("operator", "ev-1");
    assertThat(notificationTexts()).containsExactly("DONE: event ev-1 is due again");
    assertThat(lastNotificationTheme()).contains(NotificationVariant.LUMO_SUCCESS.getVariantName());
    verify(eventsOut, times(2)).parked("operator", EventsOutView.LIMIT);
    assertThat(grid("events-parked-grid").getSelectedItems()).isEmpty();
  }

  @Test
  void aRefusedRetry_isShownAsAnError() {
    stubParked();
    when(eventsOut.retryEvent("operator", "ev-1"))
        .thenReturn(ActionResult.refused("event ev-1 is not parked"));
    navigate(EventsOutView.class);

    grid("events-parked-grid").select(orderPlaced);
    click("retry-event-button");

    assertThat(notificationTexts()).containsExactly("REFUSED: event ev-1 is not parked");
    assertThat(lastNotificationTheme()).contains(NotificationVariant.LUMO_ERROR.getVariantName());
  }

  @Test
  void retryingTheSelectedDelivery_callsTheServiceWithTheDeliverysId() {
    stubParked();
    when(eventsOut.retryDelivery("operator", "wd-2"))
        .thenReturn(ActionResult.done("webhook delivery wd-2 is due again"));
    navigate(EventsOutView.class);

    grid("deliveries-parked-grid").select(refused);
    click("retry-delivery-button");

    verify(eventsOut).retryDelivery("operator", "wd-2");
    assertThat(notificationTexts()).contains("DONE: webhook delivery wd-2 is due again");
    verify(eventsOut, times(2)).parked("operator", EventsOutView.LIMIT);
  }

  @Test
  void withNothingSelected_eachButtonSaysSo_andNothingIsCalled() {
    stubParked();
    navigate(EventsOutView.class);

    click("retry-event-button");
    click("retry-delivery-button");
    click("enable-endpoint-button");

    assertThat(notificationTexts())
        .containsExactly(
            "Select the parked event to retry.",
            "Select the parked webhook delivery to retry.",
            "Select the disabled endpoint to enable.");
    assertThat(notifications())
        .allSatisfy(
            n ->
                assertThat(n.getThemeNames())
                    .contains(NotificationVariant.LUMO_ERROR.getVariantName()));
    assertThat(_find(ConfirmDialog.class)).isEmpty();
    verify(eventsOut, never()).retryEvent(anyString(), anyString());
    verify(eventsOut, never()).retryDelivery(anyString(), anyString());
    verify(eventsOut, never()).enableEndpoint(anyString(), anyString());
    verify(eventsOut, times(1)).parked(anyString(), anyInt());
  }

  @Test
  void selectingADelivery_showsItsOwnAttempts_notThoseOfTheEventsOtherDeliveries() {
    stubParked();
    Instant first = CREATED.plusSeconds(1);
    Instant second = CREATED.plusSeconds(6);
    WebhookDelivery toErp =
        new WebhookDelivery(
            "wd-9",
            "ev-2",
            "erp",
            "alice",
            DeliveryStatus.DELIVERED,
            1,
            null,
            200,
            null,
            CREATED,
            first);
    when(eventsOut.deliveriesOf("operator", "ev-2"))
        .thenReturn(
            List.of(
                new DeliveryHistory(
                    toErp, List.of(new DeliveryAttempt("wd-9", 1, first, 200, null, 40))),
                new DeliveryHistory(
                    toCrm,
                    List.of(
                        new DeliveryAttempt("wd-1", 1, first, 503, "HTTP 503", 120),
                        new DeliveryAttempt("wd-1", 2, second, null, "timed out", 10_000)))));
    // Hidden until a delivery is selected, so taken from the view rather than looked up.
    Grid<DeliveryAttempt> attempts = navigate(EventsOutView.class).attempts;
    assertThat(attempts.isVisible()).isFalse();
    assertThat(_get(H4.class, s -> s.withId("delivery-attempts-title")).getText())
        .isEqualTo("Select a parked delivery to see its attempts.");

    grid("deliveries-parked-grid").select(toCrm);

    verify(eventsOut).deliveriesOf("operator", "ev-2");
    assertThat(_get(H4.class, s -> s.withId("delivery-attempts-title")).getText())
        .isEqualTo("Attempts of delivery wd-1 to crm, oldest first");
    assertThat(attempts.isVisible()).isTrue();
    assertThat(GridKt._size(attempts)).isEqualTo(2);
    assertThat(GridKt._getFormattedRow(attempts, 0))
        .containsExactly("1", Formats.instant(first), "503", "HTTP 503", "120 ms");
    assertThat(GridKt._getFormattedRow(attempts, 1))
        .containsExactly("2", Formats.instant(second), Formats.NONE, "timed out", "10000 ms");

    grid("deliveries-parked-grid").deselectAll();

    assertThat(attempts.isVisible()).isFalse();
    assertThat(GridKt._size(attempts)).isZero();
    verify(eventsOut, times(1)).deliveriesOf(anyString(), anyString());
  }

  @Test
  void enablingAnEndpoint_asksForConfirmationFirst_thenCallsTheService() {
    stubParked();
    when(eventsOut.enableEndpoint("operator", "erp"))
        .thenReturn(ActionResult.done("webhook endpoint erp receives again"));
    navigate(EventsOutView.class);
    grid("endpoints-disabled-grid").select(gone);

    click("enable-endpoint-button");

    ConfirmDialog confirm = _get(ConfirmDialog.class, s -> s.withId("enable-endpoint-dialog"));
    assertThat(confirm.isOpened()).isTrue();
    assertThat(confirm.getElement().getProperty("header")).isEqualTo("Enable endpoint erp?");
    assertThat(confirm.getElement().getProperty("message"))
        .contains("Sending to erp resumes", "It was disabled for: 410 Gone.");
    verify(eventsOut, never()).enableEndpoint(anyString(), anyString());

    click("enable-endpoint-confirm-button");

    verify(eventsOut).enableEndpoint("operator", "erp");
    assertThat(notificationTexts()).containsExactly("DONE: webhook endpoint erp receives again");
    assertThat(confirm.isOpened()).isFalse();
    verify(eventsOut, times(2)).parked("operator", EventsOutView.LIMIT);
  }

  @Test
  void cancellingTheConfirmation_enablesNothing() {
    stubParked();
    navigate(EventsOutView.class);
    grid("endpoints-disabled-grid").select(gone);
    click("enable-endpoint-button");
    ConfirmDialog confirm = _get(ConfirmDialog.class, s -> s.withId("enable-endpoint-dialog"));

    click("enable-endpoint-cancel-button");

    assertThat(confirm.isOpened()).isFalse();
    verify(eventsOut, never()).enableEndpoint(anyString(), anyString());
    assertThat(notificationTexts()).isEmpty();
  }

  @Test
  void aFailingReadShowsAnError_andEmptyGrids() {
    when(eventsOut.parked(anyString(), anyInt()))
        .thenThrow(new IllegalStateException("database down"));

    navigate(EventsOutView.class);

    assertThat(notificationTexts())
        .containsExactly("Reading the events out failed: IllegalStateException (database down)");
    assertThat(GridKt._size(grid("events-parked-grid"))).isZero();
    assertThat(GridKt._size(grid("deliveries-parked-grid"))).isZero();
    assertThat(GridKt._size(grid("endpoints-disabled-grid"))).isZero();
    assertThat(spanText("events-parked-count")).isEqualTo("Not read: see the error.");
  }

  @Test
  void anAnonymousVisitorIsSentToTheLoginPage_andNothingIsReadOrAudited() {
    com.vaadin.flow.server.VaadinSession.getCurrent().setAttribute(OperatorSession.class, null);

    UI.getCurrent().navigate(EventsOutView.class);

    assertThat(UI.getCurrent().getCurrentView()).isInstanceOf(LoginView.class);
    verifyNoInteractions(eventsOut);
  }

  @Test
  void theSideNavigationLeadsToTheView_atEvents() {
    stubParked();
    EventsOutView view = navigate(EventsOutView.class);

    assertThat(RouteConfiguration.forApplicationScope().getUrl(EventsOutView.class))
        .isEqualTo("events");
    SideNavItem item =
        _get(SideNav.class, s -> s.withId("side-nav")).getItems().stream()
            .filter(i -> "Events out".equals(i.getLabel()))
            .findFirst()
            .orElseThrow();
    assertThat(item.getPath()).isEqualTo("events");
    assertThat(view.getPageTitle()).isEqualTo("Events out | BanHang operator console");
  }
}
