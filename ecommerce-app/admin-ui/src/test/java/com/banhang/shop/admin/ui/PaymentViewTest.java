package com.banhang.shop.admin.ui;

import static com.github.mvysny.kaributesting.v10.LocatorJ._click;
import static com.github.mvysny.kaributesting.v10.LocatorJ._find;
import static com.github.mvysny.kaributesting.v10.LocatorJ._get;
import static com.github.mvysny.kaributesting.v10.LocatorJ._setValue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import com.banhang.shop.admin.application.ActionResult;
import com.banhang.shop.admin.application.KeyRef;
import com.banhang.shop.admin.application.PaymentPage;
import com.banhang.shop.admin.application.StuckOperation;
import com.banhang.shop.payments.api.GatewayLookup.GatewayAnswer;
import com.banhang.shop.payments.api.PaymentRecord;
import com.banhang.shop.payments.api.TimelineEntry;
import com.github.mvysny.kaributesting.v10.GridKt;
import com.vaadin.flow.component.UI;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.dialog.Dialog;
import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.html.Paragraph;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.textfield.TextArea;
import com.vaadin.flow.component.textfield.TextField;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The search box, the search results and the payment page, with their refusals. */
class PaymentViewTest extends ConsoleTestBase {

  private static final KeyRef KEY = new KeyRef("alice", "payments.charge", "key-a");

  private final PaymentRecord payment =
      new PaymentRecord(
          "pay-1",
          "alice",
          "order-1",
          1250,
          "USD",
          "PENDING",
          "gk-1",
          null,
          "key-a",
          1,
          null,
          Fixtures.NOW.minus(Duration.ofMinutes(30)),
          Fixtures.NOW.minus(Duration.ofMinutes(30)));

  private final List<TimelineEntry> timeline =
      List.of(
          new TimelineEntry(
              Fixtures.NOW.minus(Duration.ofMinutes(30)),
              "ATTEMPT_STARTED",
              "PENDING, 12.50 USD",
              "customer",
              "pay-1"),
          new TimelineEntry(
              Fixtures.NOW.minus(Duration.ofMinutes(29)),
              "OUTCOME_UNKNOWN",
              "the gateway did not answer in time",
              "shop",
              "pay-1"),
          new TimelineEntry(
              Fixtures.NOW.minus(Duration.ofMinutes(1)),
              "RECONCILIATION_CHECK",
              "NEEDS_OPERATOR: no charge under gk-1",
              "reconciliation",
              "pay-1"));

  @BeforeEach
  void logIn() {
    loginAs("operator");
  }

  private void stubPage(String lastCheck, boolean resolvable) {
    StuckOperation op = Fixtures.stuckCharge("key-a", lastCheck);
    when(paymentPages.page("pay-1"))
        .thenReturn(
            Optional.of(
                new PaymentPage(
                    payment, Optional.of(Fixtures.detailOf(op)), timeline, resolvable, List.of())));
  }

  private void openPayment() {
    UI.getCurrent().navigate(PaymentView.link("pay-1"));
  }

  @Test
  @SuppressWarnings("unchecked")
  void thePaymentsGatewayEvents_areShownWithTheirStatusAndVerification_besideTheTimeline() {
    StuckOperation op = Fixtures.stuckCharge("key-a", "NEEDS_OPERATOR");
    com.banhang.shop.payments.api.GatewayEventView flagged =
        new com.banhang.shop.payments.api.GatewayEventView(
            "sandbox",
            "evt_9",
            "charge.succeeded",
            "ch_9",
            "gk-1",
            "pay-1",
            "FLAGGED",
            "the processor charged ch_9, the shop recorded no charge",
            "signature verified with secret 2 of 2, signed at 2026-12-07T03:00:00Z",
            3,
            1,
            Fixtures.NOW.minus(Duration.ofMinutes(5)),
            Fixtures.NOW.minus(Duration.ofMinutes(2)),
            Fixtures.NOW.minus(Duration.ofMinutes(5)),
            null,
            null);
    List<TimelineEntry> withEvent = new java.util.ArrayList<>(timeline);
    withEvent.add(
        new TimelineEntry(
            Fixtures.NOW.minus(Duration.ofMinutes(5)),
            "GATEWAY_EVENT",
            "charge.succeeded evt_9: FLAGGED",
            "gateway-webhook",
            "pay-1"));
    when(paymentPages.page("pay-1"))
        .thenReturn(
            Optional.of(
                new PaymentPage(
                    payment,
                    Optional.of(Fixtures.detailOf(op)),
                    withEvent,
                    true,
                    List.of(flagged))));

    openPayment();

    Grid<com.banhang.shop.payments.api.GatewayEventView> events =
        _get(Grid.class, s -> s.withId("payment-gateway-events-grid"));
    assertThat(events.isVisible()).isTrue();
    assertThat(GridKt._getFormattedRow(events, 0))
        .containsExactly(
            Formats.instant(Fixtures.NOW.minus(Duration.ofMinutes(5))),
            "charge.succeeded",
            "sandbox/evt_9",
            "FLAGGED",
            "signature verified with secret 2 of 2, signed at 2026-12-07T03:00:00Z",
            "the processor charged ch_9, the shop recorded no charge",
            Formats.NONE);
    Grid<TimelineEntry> grid = _get(Grid.class, s -> s.withId("timeline-grid"));
    assertThat(GridKt._getFormattedRow(grid, 3)).contains("GATEWAY_EVENT", "gateway-webhook");
    assertThat(_find(Span.class, s -> s.withId("payment-gateway-events-none"))).isEmpty();
  }

  @Test
  void aPaymentWithoutGatewayEvents_saysSo() {
    stubPage("NEEDS_OPERATOR", true);

    openPayment();

    assertThat(_get(Span.class, s -> s.withId("payment-gateway-events-none")).getText())
        .isEqualTo("The processor sent no event about this payment.");
    // An empty grid is hidden: the sentence says it instead.
    assertThat(_find(Grid.class, s -> s.withId("payment-gateway-events-grid"))).isEmpty();
  }

  @Test
  void theSearchBoxWithOneHitLandsOnThePaymentPage() {
    stubPage("NEEDS_OPERATOR", true);
    when(paymentPages.search("order-1")).thenReturn(List.of(payment));
    navigate(OverviewView.class);

    _setValue(_get(TextField.class, s -> s.withId("search-field")), "order-1");
    _click(_get(Button.class, s -> s.withId("search-go")));

    assertThat(UI.getCurrent().getCurrentView()).isInstanceOf(PaymentView.class);
    assertThat(_get(Span.class, s -> s.withId("payment-order")).getText()).isEqualTo("order-1");
    assertThat(_get(Span.class, s -> s.withId("payment-amount")).getText()).isEqualTo("12.50 USD");
  }

  @Test
  @SuppressWarnings("unchecked")
  void severalHitsAreListedAndNoneIsSaid() {
    PaymentRecord other =
        new PaymentRecord(
            "pay-2",
            "alice",
            "order-2",
            1_250_000,
            "VND",
            "CAPTURED",
            "gk-2",
            "ch_2",
            "key-b",
            1,
            null,
            Fixtures.NOW,
            Fixtures.NOW);
    when(paymentPages.search("alice")).thenReturn(List.of(other, payment));
    when(paymentPages.search("nothing")).thenReturn(List.of());

    open(SearchView.link("alice"));
    Grid<PaymentRecord> grid = _get(Grid.class, s -> s.withId("search-grid"));
    assertThat(GridKt._size(grid)).isEqualTo(2);
    assertThat(GridKt._getFormattedRow(grid, 0)).contains("order-2", "1250000 VND", "CAPTURED");
    assertThat(GridKt._getFormattedRow(grid, 1)).contains("order-1", "12.50 USD", "PENDING");

    open(SearchView.link("nothing"));
    assertThat(_get(Paragraph.class, s -> s.withId("search-summary")).getText())
        .startsWith("No payment found for \"nothing\"");
  }

  @Test
  @SuppressWarnings("unchecked")
  void thePaymentPageShowsTheTimelineOldestFirstWithItsOwnAddress() {
    stubPage("NEEDS_OPERATOR", true);

    openPayment();

    assertThat(UI.getCurrent().getInternals().getActiveViewLocation().getPath())
        .isEqualTo("payments/pay-1");
    Grid<TimelineEntry> grid = _get(Grid.class, s -> s.withId("timeline-grid"));
    assertThat(GridKt._size(grid)).isEqualTo(3);
    assertThat(GridKt._getFormattedRow(grid, 0)).contains("ATTEMPT_STARTED", "customer");
    assertThat(GridKt._getFormattedRow(grid, 2))
        .contains("RECONCILIATION_CHECK", "NEEDS_OPERATOR: no charge under gk-1");
    assertThat(_get(Span.class, s -> s.withId("key-last-check")).getText())
        .isEqualTo("NEEDS_OPERATOR");
  }

  @Test
  void anUnknownPaymentIdSaysSo() {
    when(paymentPages.page("nope")).thenReturn(Optional.empty());

    UI.getCurrent().navigate(PaymentView.link("nope"));

    assertThat(_get(Span.class, s -> s.withId("payment-not-found")).getText())
        .contains("No payment nope");
  }

  @Test
  void resolveIsNotOfferedWhereTheServerWouldRefuseIt() {
    stubPage(null, false);

    openPayment();

    assertThat(_get(Button.class, s -> s.withId("payment-resolve-not-charged-button")).isEnabled())
        .isFalse();
    assertThat(_get(Button.class, s -> s.withId("payment-resolve-charged-button")).isEnabled())
        .isFalse();
    assertThat(_get(Button.class, s -> s.withId("payment-reconcile-button")).isEnabled()).isTrue();
    assertThat(_get(Span.class, s -> s.withId("payment-resolve-not-offered")).getText())
        .contains("reconcile first");
  }

  @Test
  void askingTheGatewayShowsItsViewAndChangesNothing() {
    stubPage("NEEDS_OPERATOR", true);
    when(actions.askGateway("operator", "pay-1"))
        .thenReturn(
            new GatewayAnswer(
                GatewayAnswer.Finding.CHARGED,
                "ch_9",
                1250,
                "USD",
                "order-1",
                "a succeeded charge ch_9 of 12.50 USD for order order-1",
                Fixtures.NOW));
    openPayment();

    _click(_get(Button.class, s -> s.withId("ask-gateway-button")));

    assertThat(_get(Span.class, s -> s.withId("gateway-finding")).getText()).isEqualTo("CHARGED");
    assertThat(_get(Span.class, s -> s.withId("gateway-charge")).getText()).isEqualTo("ch_9");
    verify(actions, never()).resolveAsNotCharged(anyString(), any(), anyString());
    verify(actions, never()).reconcile(anyString(), any());
  }

  @Test
  void resolveAsNotChargedRestatesThePaymentAndSendsTheReasonWithTheTicket() {
    stubPage("NEEDS_OPERATOR", true);
    when(actions.resolveAsNotCharged(
            "operator", KEY, "checked the processor's dashboard [ticket INC-42]"))
        .thenReturn(ActionResult.done("released; the order is payable again"));
    openPayment();

    _click(_get(Button.class, s -> s.withId("payment-resolve-not-charged-button")));
    List<String> restated = _find(Span.class).stream().map(Span::getText).toList();
    assertThat(restated).contains("alice", "order-1", "12.50 USD", "gateway answered 404");
    _setValue(
        _get(TextArea.class, s -> s.withId("reason-field")), "checked the processor's dashboard");
    _setValue(_get(TextField.class, s -> s.withId("ticket-field")), "INC-42");
    _click(_get(Button.class, s -> s.withId("confirm-button")));

    verify(actions)
        .resolveAsNotCharged("operator", KEY, "checked the processor's dashboard [ticket INC-42]");
    assertThat(notificationTexts()).contains("DONE: released; the order is payable again");
    assertThat(_find(Dialog.class).stream().filter(Dialog::isOpened)).isEmpty();
  }

  @Test
  void reconcileFromThePaymentPageSendsItsKey() {
    stubPage(null, false);
    when(actions.reconcile("operator", List.of(KEY)))
        .thenReturn(ActionResult.done("reconciled 1 key: CAPTURED=1"));
    openPayment();

    _click(_get(Button.class, s -> s.withId("payment-reconcile-button")));

    verify(actions).reconcile("operator", List.of(KEY));
    assertThat(notificationTexts()).contains("DONE: reconciled 1 key: CAPTURED=1");
  }

  @Test
  void timesAreInTheOperatorsZoneWithUtcOnHover() {
    com.vaadin.flow.server.VaadinSession.getCurrent()
        .setAttribute(Formats.ZONE_ATTRIBUTE, java.time.ZoneId.of("Asia/Ho_Chi_Minh"));
    stubPage("NEEDS_OPERATOR", true);

    openPayment();

    Span created =
        _find(Span.class).stream()
            .filter(span -> span.getText().endsWith(" ICT"))
            .findFirst()
            .orElseThrow();
    java.time.Instant at = payment.createdAt();
    assertThat(created.getText())
        .isEqualTo(
            java.time.format.DateTimeFormatter.ofPattern(
                        "yyyy-MM-dd HH:mm:ss", java.util.Locale.ROOT)
                    .withZone(java.time.ZoneId.of("Asia/Ho_Chi_Minh"))
                    .format(at)
                + " ICT");
    assertThat(created.getTitle())
        .contains(Formats.utc(at))
        .hasValueSatisfying(t -> assertThat(t).endsWith("UTC"));
  }

  @Test
  @SuppressWarnings("unchecked")
  void anOrderHasItsOwnAddressListingItsPayments_eachOpeningItsPage() {
    stubPage("NEEDS_OPERATOR", true);
    when(paymentPages.ofOrder("order-1")).thenReturn(List.of(payment));

    UI.getCurrent().navigate(OrderView.link("order-1"));

    assertThat(UI.getCurrent().getInternals().getActiveViewLocation().getPath())
        .isEqualTo("orders/order-1");
    Grid<PaymentRecord> grid = _get(Grid.class, s -> s.withId("order-payments-grid"));
    assertThat(GridKt._getFormattedRow(grid, 0)).contains("PENDING", "12.50 USD", "pay-1");
    GridKt._clickItem(grid, 0);
    assertThat(UI.getCurrent().getCurrentView()).isInstanceOf(PaymentView.class);
  }
}
