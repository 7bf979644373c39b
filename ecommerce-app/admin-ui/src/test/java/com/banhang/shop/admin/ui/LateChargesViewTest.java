package com.banhang.shop.admin.ui;

import static com.github.mvysny.kaributesting.v10.LocatorJ._click;
import static com.github.mvysny.kaributesting.v10.LocatorJ._find;
import static com.github.mvysny.kaributesting.v10.LocatorJ._get;
import static com.github.mvysny.kaributesting.v10.LocatorJ._setValue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyBoolean;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.atLeastOnce;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import com.banhang.shop.admin.application.ActionResult;
import com.banhang.shop.payments.api.FlaggedLateChargeView;
import com.banhang.shop.payments.api.FlaggedLateCharges.Handling;
import com.github.mvysny.kaributesting.v10.GridKt;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.checkbox.Checkbox;
import com.vaadin.flow.component.dialog.Dialog;
import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.notification.NotificationVariant;
import com.vaadin.flow.component.textfield.TextArea;
import com.vaadin.flow.component.textfield.TextField;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Late charges view: what the sweep flagged, and what the operator does about it. */
class LateChargesViewTest extends ConsoleTestBase {

  private static final Instant FOUND = Instant.now().truncatedTo(ChronoUnit.SECONDS);
  private static final Instant HANDLED = FOUND.plusSeconds(600);
  private static final String REASON = "refunded ch_p-1 in the processor's dashboard";

  private final FlaggedLateChargeView doubleCharge = row("p-1", "DOUBLE_CHARGE");
  private final FlaggedLateChargeView mismatch = row("p-2", "MISMATCH");
  private final FlaggedLateChargeView declined = row("p-3", "DECLINED");
  private final FlaggedLateChargeView handled =
      new FlaggedLateChargeView(
          "p-4",
          "bob",
          "order-p-4",
          990_000,
          "VND",
          "DOUBLE_CHARGE",
          "ch_p-4",
          "detail of p-4",
          FOUND,
          HANDLED,
          "carol",
          "REFUNDED",
          "refunded at the processor [ticket INC-7]");

  @BeforeEach
  void operator() {
    loginAs("operator");
  }

  private static FlaggedLateChargeView row(String paymentId, String flag) {
    return new FlaggedLateChargeView(
        paymentId,
        "alice",
        "order-" + paymentId,
        1_250_000,
        "VND",
        flag,
        "ch_" + paymentId,
        "detail of " + paymentId,
        FOUND);
  }

  /** The unhandled rows by default, every row with "Show handled". */
  private void stubRows() {
    List<FlaggedLateChargeView> open = List.of(doubleCharge, mismatch, declined);
    List<FlaggedLateChargeView> all = List.of(handled, doubleCharge, mismatch, declined);
    when(lateCharges.count(false)).thenReturn(open.size());
    when(lateCharges.count(true)).thenReturn(all.size());
    when(lateCharges.page(anyString(), anyInt(), anyInt(), eq(false))).thenAnswer(paged(open));
    when(lateCharges.page(anyString(), anyInt(), anyInt(), eq(true))).thenAnswer(paged(all));
  }

  @SuppressWarnings("unchecked")
  private static Grid<FlaggedLateChargeView> grid() {
    return _get(Grid.class, s -> s.withId("late-charges-grid"));
  }

  private static void fill(String reason, String ticket) {
    _setValue(_get(TextArea.class, s -> s.withId("reason-field")), reason);
    _setValue(_get(TextField.class, s -> s.withId("ticket-field")), ticket);
  }

  private static void confirm() {
    _click(_get(Button.class, s -> s.withId("confirm-button")));
  }

  private static boolean dialogOpen() {
    return _find(Dialog.class).stream().anyMatch(Dialog::isOpened);
  }

  @Test
  void aDoubleChargeIsShownAsChargedTwice_refundAtTheProcessor() {
    stubRows();

    navigate(LateChargesView.class);

    Grid<FlaggedLateChargeView> grid = grid();
    assertThat(GridKt._size(grid)).isEqualTo(3);
    // The read is made, and so audited, under the logged-in operator's name.
    verify(lateCharges, atLeastOnce()).page(eq("operator"), anyInt(), anyInt(), eq(false));
    assertThat(GridKt._getFormattedRow(grid, 0))
        .containsExactly(
            Formats.instant(FOUND),
            "DOUBLE_CHARGE",
            "charged twice: refund at the processor",
            "alice",
            "order-p-1",
            "1250000 VND",
            "ch_p-1",
            "p-1",
            "detail of p-1",
            Formats.NONE);
    assertThat(GridKt._getFormattedRow(grid, 1))
        .contains("MISMATCH", "not this attempt's charge: check it at the processor");
    assertThat(GridKt._getFormattedRow(grid, 2))
        .contains("DECLINED", "declined: nothing was charged, nothing to do");
  }

  @Test
  void handledOnesAreHidden_untilShowHandled_thenShowWhoWhenHowAndWhy() {
    stubRows();
    navigate(LateChargesView.class);
    assertThat(GridKt._size(grid())).isEqualTo(3);

    _setValue(_get(Checkbox.class, s -> s.withId("late-charges-show-handled")), true);

    assertThat(GridKt._size(grid())).isEqualTo(4);
    verify(lateCharges, atLeastOnce()).page(eq("operator"), anyInt(), anyInt(), eq(true));
    assertThat(GridKt._getFormattedRow(grid(), 0))
        .contains(
            "REFUNDED by carol at "
                + Formats.instant(HANDLED)
                + ": refunded at the processor [ticket INC-7]");
  }

  @Test
  void markRefunded_restatesTheCharge_andSendsTheReasonWithTheTicket() {
    stubRows();
    when(actions.markLateChargeHandled(
            "operator", "p-1", Handling.REFUNDED, REASON + " [ticket INC-42]"))
        .thenReturn(ActionResult.done("late charge ch_p-1 marked REFUNDED"));
    navigate(LateChargesView.class);
    grid().select(doubleCharge);

    _click(_get(Button.class, s -> s.withId("late-charge-refunded-button")));
    List<String> restated = _find(Span.class).stream().map(Span::getText).toList();
    assertThat(restated)
        .contains(
            "alice",
            "order-p-1",
            "1250000 VND",
            "DOUBLE_CHARGE: " + "charged twice: refund at the processor",
            "ch_p-1",
            "p-1");
    assertThat(_get(Dialog.class, s -> s.withId("late-charge-handled-dialog")).isOpened()).isTrue();
    fill(REASON, "INC-42");
    confirm();

    verify(actions)
        .markLateChargeHandled("operator", "p-1", Handling.REFUNDED, REASON + " [ticket INC-42]");
    assertThat(notificationTexts()).contains("DONE: late charge ch_p-1 marked REFUNDED");
    assertThat(dialogOpen()).isFalse();
    // The grid was read again after the mark, and the old selection went with the old rows.
    assertThat(grid().getSelectedItems()).isEmpty();
  }

  @Test
  void markAccepted_sendsAccepted() {
    stubRows();
    when(actions.markLateChargeHandled(eq("operator"), eq("p-2"), eq(Handling.ACCEPTED), any()))
        .thenReturn(ActionResult.done("marked ACCEPTED"));
    navigate(LateChargesView.class);
    grid().select(mismatch);

    _click(_get(Button.class, s -> s.withId("late-charge-accepted-button")));
    fill("the customer agreed to keep the charge on the phone", "INC-43");
    confirm();

    verify(actions)
        .markLateChargeHandled(
            "operator",
            "p-2",
            Handling.ACCEPTED,
            "the customer agreed to keep the charge on the phone [ticket INC-43]");
  }

  @Test
  void withoutASelection_nothingIsAsked_andNothingCalled() {
    stubRows();
    navigate(LateChargesView.class);

    _click(_get(Button.class, s -> s.withId("late-charge-refunded-button")));
    _click(_get(Button.class, s -> s.withId("late-charge-accepted-button")));

    assertThat(notificationTexts()).contains("Select the late charge to mark handled.");
    assertThat(dialogOpen()).isFalse();
    verify(actions, never()).markLateChargeHandled(anyString(), any(), any(), any());
  }

  @Test
  void aReasonTooShort_isRefusedInTheUi_andNothingIsCalled() {
    stubRows();
    navigate(LateChargesView.class);
    grid().select(doubleCharge);
    _click(_get(Button.class, s -> s.withId("late-charge-refunded-button")));

    fill("refunded", "INC-42");
    confirm();

    TextArea reason = _get(TextArea.class, s -> s.withId("reason-field"));
    assertThat(reason.isInvalid()).isTrue();
    assertThat(reason.getErrorMessage())
        .isEqualTo("Say what you checked and where, in at least 20 characters.");
    assertThat(notificationTexts())
        .contains("Say what you checked and where, in at least 20 characters.");
    assertThat(dialogOpen()).isTrue();
    verify(actions, never()).markLateChargeHandled(anyString(), any(), any(), any());
  }

  @Test
  void noTicket_isRefusedInTheUi_andNothingIsCalled() {
    stubRows();
    navigate(LateChargesView.class);
    grid().select(doubleCharge);
    _click(_get(Button.class, s -> s.withId("late-charge-accepted-button")));

    fill(REASON, "  ");
    confirm();

    assertThat(_get(TextField.class, s -> s.withId("ticket-field")).isInvalid()).isTrue();
    assertThat(_get(TextArea.class, s -> s.withId("reason-field")).isInvalid()).isFalse();
    assertThat(notificationTexts())
        .contains("A ticket reference is required: it is written to the audit.");
    assertThat(dialogOpen()).isTrue();
    verify(actions, never()).markLateChargeHandled(anyString(), any(), any(), any());
  }

  @Test
  void theServicesRefusal_isShownAsItSaysIt() {
    stubRows();
    when(actions.markLateChargeHandled(anyString(), anyString(), any(), anyString()))
        .thenReturn(
            ActionResult.refused(
                "already handled by carol at 2026-12-06T03:10:00Z; nothing" + " changed"));
    navigate(LateChargesView.class);
    grid().select(doubleCharge);
    _click(_get(Button.class, s -> s.withId("late-charge-refunded-button")));

    fill(REASON, "INC-42");
    confirm();

    assertThat(notificationTexts())
        .contains("REFUSED: already handled by carol at 2026-12-06T03:10:00Z; nothing changed");
    assertThat(notifications().get(notifications().size() - 1).getThemeNames())
        .contains(NotificationVariant.LUMO_ERROR.getVariantName());
  }

  @Test
  void aFailingServiceShowsAnErrorAndAnEmptyGrid() {
    when(lateCharges.count(anyBoolean())).thenThrow(new IllegalStateException("database down"));

    navigate(LateChargesView.class);

    assertThat(notificationTexts()).anyMatch(t -> t.contains("database down"));
    assertThat(GridKt._size(grid())).isZero();
  }
}
