package com.banhang.shop.admin.ui;

import static com.github.mvysny.kaributesting.v10.LocatorJ._click;
import static com.github.mvysny.kaributesting.v10.LocatorJ._find;
import static com.github.mvysny.kaributesting.v10.LocatorJ._get;
import static com.github.mvysny.kaributesting.v10.LocatorJ._setValue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyBoolean;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.atLeastOnce;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import com.banhang.shop.admin.application.ActionResult;
import com.banhang.shop.admin.application.BulkReconciliation;
import com.banhang.shop.admin.application.KeyRef;
import com.banhang.shop.admin.application.OverrideProposal;
import com.banhang.shop.admin.application.StuckFilter;
import com.banhang.shop.admin.application.StuckOperation;
import com.banhang.shop.admin.application.StuckOperations;
import com.github.mvysny.kaributesting.v10.GridKt;
import com.github.mvysny.kaributesting.v10.ShortcutsKt;
import com.vaadin.flow.component.Key;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.combobox.ComboBox;
import com.vaadin.flow.component.confirmdialog.ConfirmDialog;
import com.vaadin.flow.component.dialog.Dialog;
import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.html.Paragraph;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.notification.NotificationVariant;
import com.vaadin.flow.component.textfield.IntegerField;
import com.vaadin.flow.component.textfield.TextArea;
import com.vaadin.flow.component.textfield.TextField;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;

class StuckOperationsViewTest extends ConsoleTestBase {

  private final StuckOperation a = Fixtures.stuckCharge("key-a", "NEEDS_OPERATOR");
  private final StuckOperation b = Fixtures.stuckCharge("key-b", null);
  private final StuckOperation c = Fixtures.stuckCharge("key-c", "FAILED");
  private Grid<StuckOperation> grid;

  @BeforeEach
  @SuppressWarnings("unchecked")
  void open() {
    when(stuck.count(any())).thenReturn(3);
    when(stuck.page(any(), anyInt(), anyInt())).thenAnswer(paged(List.of(a, b, c)));
    when(stuck.detail(any())).thenAnswer(i -> Optional.of(Fixtures.detailOf(a)));
    loginAs("operator");
    navigate(StuckOperationsView.class);
    grid = _get(Grid.class, s -> s.withId("stuck-grid"));
  }

  @Test
  void theGridPagesOnTheServerWithTheDefaultMinimumAge() {
    assertThat(GridKt._size(grid)).isEqualTo(3);
    assertThat(GridKt._getFormattedRow(grid, 1)).contains("alice", "payments.charge", "key-b");
    ArgumentCaptor<StuckFilter> filter = ArgumentCaptor.forClass(StuckFilter.class);
    verify(stuck, atLeastOnce()).page(filter.capture(), eq(0), anyInt());
    assertThat(filter.getValue())
        .isEqualTo(new StuckFilter(null, null, null, StuckOperations.DEFAULT_MIN_AGE));
  }

  @Test
  @SuppressWarnings("unchecked")
  void theFiltersReachTheService() {
    _setValue(_get(TextField.class, s -> s.withId("tenant-filter")), "bob");
    _setValue(_get(ComboBox.class, s -> s.withId("operation-filter")), "payments.charge");
    _setValue(_get(ComboBox.class, s -> s.withId("last-check-filter")), StuckFilter.NEVER_CHECKED);
    _setValue(_get(IntegerField.class, s -> s.withId("min-age-filter")), 10);
    _click(_get(Button.class, s -> s.withId("search-button")));
    GridKt._size(grid);

    verify(stuck).count(new StuckFilter("bob", "payments.charge", "NEVER", Duration.ofMinutes(10)));
  }

  @Test
  void enterInAFilterFieldRunsTheSearch() {
    TextField tenant = _get(TextField.class, s -> s.withId("tenant-filter"));
    _setValue(tenant, "bob");

    // Karibu fires where the shortcut listens: the row of filter fields the field is in.
    ShortcutsKt._fireShortcut(tenant.getParent().orElseThrow(), Key.ENTER);
    GridKt._size(grid);

    verify(stuck).count(new StuckFilter("bob", null, null, StuckOperations.DEFAULT_MIN_AGE));
  }

  @Test
  void clickingARowOpensThatRowAlone() {
    grid.select(a);
    grid.select(c);

    GridKt._clickItem(grid, 1, grid.getColumns().get(0));

    assertThat(grid.getSelectedItems()).containsExactly(b);
    verify(stuck).detail(b.ref());
  }

  @Test
  void selectingARowShowsItsDetailWithThePaymentAttempt() {
    grid.select(a);

    verify(stuck).detail(a.ref());
    List<String> texts = _find(Span.class).stream().map(Span::getText).toList();
    assertThat(texts)
        .contains("sha256:fingerprint-key-a", "gk-key-a", "NEEDS_OPERATOR", "gateway answered 404");
  }

  @Test
  void reconcileNowSendsExactlyTheSelectedKeys() {
    when(actions.reconcile(eq("operator"), any()))
        .thenReturn(ActionResult.done("2 keys examined: 1 captured, 1 still running"));
    grid.select(a);
    grid.select(c);

    _click(_get(Button.class, s -> s.withId("reconcile-button")));

    verify(actions).reconcile("operator", List.of(a.ref(), c.ref()));
    assertThat(notificationTexts()).contains("DONE: 2 keys examined: 1 captured, 1 still running");
    assertThat(notifications().get(notifications().size() - 1).getThemeNames())
        .contains(NotificationVariant.LUMO_SUCCESS.getVariantName());
    // The grid was read again after the action, and the selection went with the old rows.
    assertThat(grid.getSelectedItems()).isEmpty();
  }

  @Test
  void reconcileWithoutASelectionCallsNothing() {
    _click(_get(Button.class, s -> s.withId("reconcile-button")));

    verify(actions, never()).reconcile(anyString(), any());
    assertThat(notificationTexts()).anyMatch(t -> t.contains("Select the keys"));
  }

  @Test
  void resolveWithoutAReasonIsRefusedInTheUi() {
    grid.select(b);
    _click(_get(Button.class, s -> s.withId("resolve-charged-button")));
    _setValue(_get(TextField.class, s -> s.withId("charge-id-field")), "ch_123");
    _setValue(_get(TextArea.class, s -> s.withId("reason-field")), "   ");

    _click(_get(Button.class, s -> s.withId("confirm-button")));

    TextArea reason = _get(TextArea.class, s -> s.withId("reason-field"));
    assertThat(reason.isInvalid()).isTrue();
    assertThat(reason.getErrorMessage())
        .isEqualTo("A reason is required: it is written to the audit.");
    assertThat(notificationTexts()).contains("A reason is required: it is written to the audit.");
    verify(actions, never())
        .resolveAsCharged(anyString(), any(), anyString(), anyString(), anyBoolean());
    assertThat(_get(Dialog.class).isOpened()).isTrue();
  }

  @Test
  void resolveAsNotChargedWithoutAReasonIsRefusedInTheUi() {
    grid.select(b);
    _click(_get(Button.class, s -> s.withId("resolve-not-charged-button")));

    _click(_get(Button.class, s -> s.withId("confirm-button")));

    assertThat(_get(TextArea.class, s -> s.withId("reason-field")).isInvalid()).isTrue();
    verify(actions, never()).resolveAsNotCharged(anyString(), any(), anyString());
  }

  @Test
  void resolveAsChargedAnsweredRefusedShowsTheError() {
    when(actions.resolveAsCharged(
            "operator",
            b.ref(),
            "ch_other",
            "customer called, bank shows it [ticket INC-7]",
            false))
        .thenReturn(ActionResult.refused("charge ch_other is for another order"));
    grid.select(b);
    _click(_get(Button.class, s -> s.withId("resolve-charged-button")));
    _setValue(_get(TextField.class, s -> s.withId("charge-id-field")), "ch_other");
    _setValue(
        _get(TextArea.class, s -> s.withId("reason-field")), "customer called, bank shows it");
    _setValue(_get(TextField.class, s -> s.withId("ticket-field")), "INC-7");

    _click(_get(Button.class, s -> s.withId("confirm-button")));

    assertThat(notificationTexts()).contains("REFUSED: charge ch_other is for another order");
    assertThat(notifications().get(notifications().size() - 1).getThemeNames())
        .contains(NotificationVariant.LUMO_ERROR.getVariantName());
    assertThat(_find(ConfirmDialog.class, s -> s.withId("override-dialog"))).isEmpty();
    verify(actions, times(1))
        .resolveAsCharged(anyString(), any(), anyString(), anyString(), anyBoolean());
  }

  @Test
  void confirmationNeededLeadsToTheOverrideDialogAndASecondCallWithOverride() {
    KeyRef ref = b.ref();
    when(actions.resolveAsCharged(
            "operator", ref, "ch_1", "bank statement shows it [ticket INC-8]", false))
        .thenReturn(
            new ActionResult(
                ActionResult.Status.CONFIRMATION_NEEDED, "the gateway does not know ch_1"));
    when(actions.resolveAsCharged(
            "operator", ref, "ch_1", "bank statement shows it [ticket INC-8]", true))
        .thenReturn(ActionResult.done("settled as charged by ch_1 (override)"));
    grid.select(b);
    _click(_get(Button.class, s -> s.withId("resolve-charged-button")));
    _setValue(_get(TextField.class, s -> s.withId("charge-id-field")), "ch_1");
    _setValue(_get(TextArea.class, s -> s.withId("reason-field")), "bank statement shows it");
    _setValue(_get(TextField.class, s -> s.withId("ticket-field")), "INC-8");
    _click(_get(Button.class, s -> s.withId("confirm-button")));

    ConfirmDialog override = _get(ConfirmDialog.class, s -> s.withId("override-dialog"));
    assertThat(override.isOpened()).isTrue();
    assertThat(_get(Paragraph.class, s -> s.withId("override-question")).getText())
        .isEqualTo("The gateway no longer knows this charge: override?");
    verify(actions, never()).resolveAsCharged(any(), any(), any(), any(), eq(true));

    _click(_get(Button.class, s -> s.withId("override-button")));

    verify(actions)
        .resolveAsCharged("operator", ref, "ch_1", "bank statement shows it [ticket INC-8]", true);
    assertThat(notificationTexts()).contains("DONE: settled as charged by ch_1 (override)");
  }

  /**
   * A second operator approves the override waiting on the selected key; the approver is the
   * logged-in operator, never a name typed anywhere.
   */
  @Test
  void approveOverride_approvesTheProposalOnTheSelectedKeyAsTheLoggedInOperator() {
    loginAs("operator2");
    OverrideProposal waiting =
        new OverrideProposal(
            41L,
            java.time.Instant.EPOCH,
            "operator",
            b.ref(),
            "ch_1",
            "bank statement shows it",
            OverrideProposal.PROPOSED,
            null);
    when(actions.pendingOverrides()).thenReturn(List.of(waiting));
    when(actions.approveOverride("operator2", 41L))
        .thenReturn(ActionResult.done("recorded as captured on the operator's confirmation"));

    grid.select(a);
    _click(_get(Button.class, s -> s.withId("approve-override-button")));
    assertThat(notificationTexts())
        .contains("No override proposal waits for approval on this key.");
    verify(actions, never()).approveOverride(any(), anyLong());

    grid.deselectAll();
    grid.select(b);
    _click(_get(Button.class, s -> s.withId("approve-override-button")));
    assertThat(_get(ConfirmDialog.class, s -> s.withId("override-dialog")).isOpened()).isTrue();
    _click(_get(Button.class, s -> s.withId("override-button")));

    verify(actions).approveOverride("operator2", 41L);
    assertThat(notificationTexts())
        .contains("DONE: recorded as captured on the operator's confirmation");
  }

  @Test
  void resolveAsNotChargedCallsTheServiceWithTheReason() {
    when(actions.resolveAsNotCharged("operator", a.ref(), "gateway never saw it [ticket INC-9]"))
        .thenReturn(ActionResult.done("released; the order is payable again"));
    grid.select(a);
    _click(_get(Button.class, s -> s.withId("resolve-not-charged-button")));
    // The dialog reads back what is being settled before anything is typed.
    List<String> restated = _find(Span.class).stream().map(Span::getText).toList();
    assertThat(restated).contains("alice", "order-1", "1250000 VND", "gateway answered 404");
    _setValue(_get(TextArea.class, s -> s.withId("reason-field")), "gateway never saw it");
    _setValue(_get(TextField.class, s -> s.withId("ticket-field")), "INC-9");

    _click(_get(Button.class, s -> s.withId("confirm-button")));

    verify(actions).resolveAsNotCharged("operator", a.ref(), "gateway never saw it [ticket INC-9]");
    assertThat(notificationTexts()).contains("DONE: released; the order is payable again");
    assertThat(_find(Dialog.class).stream().filter(Dialog::isOpened)).isEmpty();
  }

  @Test
  void resolvingNeedsExactlyOneSelectedKey() {
    grid.select(a);
    assertThat(_get(Button.class, s -> s.withId("resolve-not-charged-button")).isEnabled())
        .isTrue();
    grid.select(b);

    assertThat(_get(Button.class, s -> s.withId("resolve-not-charged-button")).isEnabled())
        .isFalse();
    assertThat(_get(Button.class, s -> s.withId("resolve-charged-button")).isEnabled()).isFalse();
    assertThat(_find(Dialog.class)).isEmpty();
  }

  /**
   * A key nobody has asked the gateway about, whose request may still be running, is
   * reconciliation's: the resolve buttons are not offered, and the view says why.
   */
  @Test
  void resolveIsNotOfferedForAKeyWithALiveLeaseThatWasNeverChecked() {
    StuckOperation young =
        new StuckOperation(
            new KeyRef("alice", "payments.charge", "key-young"),
            1,
            Fixtures.NOW.minusSeconds(30),
            Fixtures.NOW.plusSeconds(60),
            false,
            null,
            null,
            Fixtures.NOW);
    when(stuck.detail(young.ref())).thenReturn(Optional.of(Fixtures.detailOf(young)));

    grid.select(young);

    assertThat(_get(Button.class, s -> s.withId("resolve-not-charged-button")).isEnabled())
        .isFalse();
    assertThat(_get(Button.class, s -> s.withId("resolve-charged-button")).isEnabled()).isFalse();
    assertThat(_get(Span.class, s -> s.withId("resolve-not-offered")).getText())
        .contains("reconciliation needs an operator");
  }

  @Test
  void aReasonTooShortOrNoTicketIsRefusedInTheUi() {
    grid.select(a);
    _click(_get(Button.class, s -> s.withId("resolve-not-charged-button")));
    _setValue(_get(TextArea.class, s -> s.withId("reason-field")), "ok");

    _click(_get(Button.class, s -> s.withId("confirm-button")));

    assertThat(_get(TextArea.class, s -> s.withId("reason-field")).getErrorMessage())
        .isEqualTo("Say what you checked and where, in at least 20 characters.");
    assertThat(_get(TextField.class, s -> s.withId("ticket-field")).isInvalid()).isTrue();
    assertThat(notificationTexts())
        .contains("A ticket reference is required: it is written to the audit.");

    _setValue(
        _get(TextArea.class, s -> s.withId("reason-field")), "checked the processor's dashboard");
    _click(_get(Button.class, s -> s.withId("confirm-button")));

    assertThat(_get(TextArea.class, s -> s.withId("reason-field")).isInvalid()).isFalse();
    assertThat(_get(TextField.class, s -> s.withId("ticket-field")).isInvalid()).isTrue();
    verify(actions, never()).resolveAsNotCharged(anyString(), any(), anyString());
    assertThat(_get(Dialog.class).isOpened()).isTrue();
  }

  @Test
  void aLinkFromKeyLookupSelectsTheKey() {
    when(stuck.detail(c.ref())).thenReturn(Optional.of(Fixtures.detailOf(c)));

    open(StuckOperationsView.link(c.ref()));
    @SuppressWarnings("unchecked")
    Grid<StuckOperation> linked = _get(Grid.class, s -> s.withId("stuck-grid"));

    assertThat(linked.getSelectedItems()).extracting(StuckOperation::ref).containsExactly(c.ref());
    assertThat(_get(TextField.class, s -> s.withId("tenant-filter")).getValue()).isEqualTo("alice");
    assertThat(_get(IntegerField.class, s -> s.withId("min-age-filter")).getValue()).isZero();
  }

  @Test
  void aFailingServiceShowsAnErrorAndTheViewStillRenders() {
    when(stuck.count(any())).thenThrow(new UnsupportedOperationException("TODO"));
    _click(_get(Button.class, s -> s.withId("search-button")));

    assertThat(GridKt._size(grid)).isZero();
    assertThat(notificationTexts()).anyMatch(t -> t.startsWith("Counting stuck operations failed"));
    assertThat(_get(Button.class, s -> s.withId("reconcile-button")).isVisible()).isTrue();
  }

  @Test
  void sortingAColumnSortsOnTheServer() {
    grid.sort(
        List.of(
            new com.vaadin.flow.component.grid.GridSortOrder<>(
                grid.getColumns().stream()
                    .filter(
                        c -> "LAST_CHECK".equals(c.getKey()) || hasSortProperty(c, "LAST_CHECK"))
                    .findFirst()
                    .orElseThrow(),
                com.vaadin.flow.data.provider.SortDirection.DESCENDING)));
    GridKt._size(grid);
    GridKt._getFormattedRow(grid, 0);

    ArgumentCaptor<StuckFilter> filter = ArgumentCaptor.forClass(StuckFilter.class);
    verify(stuck, atLeastOnce()).page(filter.capture(), anyInt(), anyInt());
    assertThat(filter.getAllValues())
        .contains(
            new StuckFilter(null, null, null, StuckOperations.DEFAULT_MIN_AGE)
                .sortedBy(new StuckFilter.Sort(StuckFilter.Column.LAST_CHECK, true)));
  }

  private static boolean hasSortProperty(Grid.Column<StuckOperation> column, String property) {
    return column
        .getSortOrder(com.vaadin.flow.data.provider.SortDirection.ASCENDING)
        .anyMatch(order -> property.equals(order.getSorted()));
  }

  @Test
  void theClaimTimeRangeReachesTheServiceInTheOperatorsZone() {
    com.vaadin.flow.server.VaadinSession.getCurrent()
        .setAttribute(Formats.ZONE_ATTRIBUTE, java.time.ZoneId.of("Asia/Ho_Chi_Minh"));
    _setValue(
        _get(
            com.vaadin.flow.component.datetimepicker.DateTimePicker.class,
            s -> s.withId("claimed-from-filter")),
        java.time.LocalDateTime.of(2026, 12, 6, 10, 0));
    _click(_get(Button.class, s -> s.withId("search-button")));
    GridKt._size(grid);

    ArgumentCaptor<StuckFilter> filter = ArgumentCaptor.forClass(StuckFilter.class);
    verify(stuck, atLeastOnce()).count(filter.capture());
    // 10:00 in Ho Chi Minh City (UTC+7) is 03:00 UTC.
    assertThat(filter.getValue().claimedFrom())
        .isEqualTo(java.time.Instant.parse("2026-12-06T03:00:00Z"));
    assertThat(filter.getValue().claimedBefore()).isNull();
  }

  @Test
  void theOrderAndAmountOfEachPaymentRowAreShown() {
    when(stuck.paymentsOf(any()))
        .thenReturn(
            java.util.Map.of(
                b.ref(),
                new com.banhang.shop.payments.api.KeyPaymentView(
                    "pay-b", "order-b", 1250, "USD", "PENDING", "gk-b", null, b.createdAt())));
    _click(_get(Button.class, s -> s.withId("search-button")));

    assertThat(GridKt._getFormattedRow(grid, 1)).contains("key-b", "order-b", "12.50 USD");
    assertThat(GridKt._getFormattedRow(grid, 0)).contains("key-a", "—");
  }

  @Test
  @SuppressWarnings("unchecked")
  void reconcileAllMatchingAsksFirst_thenRunsInTheBackground_andShowsItsProgress() {
    when(stuck.count(
            new StuckFilter(null, "payments.charge", null, StuckOperations.DEFAULT_MIN_AGE)))
        .thenReturn(2);
    java.time.Instant now = java.time.Instant.now();
    ArgumentCaptor<java.util.function.Consumer<BulkReconciliation.JobView>> progress =
        ArgumentCaptor.forClass(java.util.function.Consumer.class);
    when(bulk.start(eq("operator"), any(), progress.capture()))
        .thenReturn(
            new BulkReconciliation.JobView(
                7, "operator", now, null, -1, 0, java.util.Map.of(), List.of(), null));

    _click(_get(Button.class, s -> s.withId("reconcile-all-button")));
    verify(bulk, never()).start(any(), any(), any());
    _click(_get(Button.class, s -> s.withId("reconcile-all-confirm-button")));

    verify(bulk).start(eq("operator"), any(), any());
    assertThat(_get(Span.class, s -> s.withId("bulk-status")).getText())
        .contains("reading the matching keys");
    progress
        .getValue()
        .accept(
            new BulkReconciliation.JobView(
                7,
                "operator",
                now,
                now,
                2,
                2,
                java.util.Map.of("CAPTURED", 1, "NEEDS_OPERATOR", 1),
                List.of("alice key-b: DONE reconciled 1 key: NEEDS_OPERATOR=1"),
                null));
    com.github.mvysny.kaributesting.v10.MockVaadin.clientRoundtrip();

    assertThat(_get(Span.class, s -> s.withId("bulk-status")).getText())
        .contains("2 of 2 keys, finished", "CAPTURED=1", "NEEDS_OPERATOR=1");
    assertThat(_find(Span.class).stream().map(Span::getText))
        .contains("alice key-b: DONE reconciled 1 key: NEEDS_OPERATOR=1");
  }

  @Test
  void reconcileAllWithNothingMatchingStartsNothing() {
    when(stuck.count(
            new StuckFilter(null, "payments.charge", null, StuckOperations.DEFAULT_MIN_AGE)))
        .thenReturn(0);
    _click(_get(Button.class, s -> s.withId("reconcile-all-button")));

    verify(bulk, never()).start(any(), any(), any());
    assertThat(notificationTexts()).anyMatch(t -> t.contains("nothing to reconcile"));
  }
}
