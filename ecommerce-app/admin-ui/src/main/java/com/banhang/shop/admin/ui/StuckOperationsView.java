package com.banhang.shop.admin.ui;

import com.banhang.shop.admin.application.ActionResult;
import com.banhang.shop.admin.application.BulkReconciliation;
import com.banhang.shop.admin.application.KeyRef;
import com.banhang.shop.admin.application.OperatorActions;
import com.banhang.shop.admin.application.OverrideProposal;
import com.banhang.shop.admin.application.StuckFilter;
import com.banhang.shop.admin.application.StuckFilter.Column;
import com.banhang.shop.admin.application.StuckOperation;
import com.banhang.shop.admin.application.StuckOperationDetail;
import com.banhang.shop.admin.application.StuckOperations;
import com.banhang.shop.payments.api.KeyPaymentView;
import com.banhang.shop.payments.api.PaymentResolution;
import com.vaadin.flow.component.Key;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.combobox.ComboBox;
import com.vaadin.flow.component.formlayout.FormLayout;
import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.grid.GridVariant;
import com.vaadin.flow.component.html.H2;
import com.vaadin.flow.component.html.H3;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.orderedlayout.FlexComponent;
import com.vaadin.flow.component.orderedlayout.HorizontalLayout;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.component.textfield.IntegerField;
import com.vaadin.flow.component.textfield.TextField;
import com.vaadin.flow.data.provider.CallbackDataProvider;
import com.vaadin.flow.router.HasDynamicTitle;
import com.vaadin.flow.router.Route;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/** Keys left processing, and what an operator may do about them. */
@Route(value = "stuck", layout = MainLayout.class)
public class StuckOperationsView extends VerticalLayout
    implements com.vaadin.flow.router.BeforeEnterObserver, HasDynamicTitle {

  static final String PAYMENTS_CHARGE = "payments.charge";
  static final List<String> OPERATIONS = List.of("orders.create", PAYMENTS_CHARGE);

  /** The address of this view showing one key selected: a link from Key lookup or a ticket. */
  static String link(KeyRef ref) {
    return "stuck?"
        + com.vaadin.flow.router.QueryParameters.simple(
                Map.of("tenant", ref.tenant(), "operation", ref.operation(), "key", ref.key()))
            .getQueryString();
  }

  static final List<String> LAST_CHECKS =
      List.of(
          StuckFilter.NEVER_CHECKED,
          "NEEDS_OPERATOR",
          "GATEWAY_UNREACHABLE",
          "FAILED",
          "STILL_RUNNING");

  /** The session attribute that remembers this operator's last bulk job, for its results panel. */
  static final String BULK_JOB_ATTRIBUTE = "banhang.bulk-reconciliation";

  private final StuckOperations stuck;
  private final OperatorActions actions;
  private final BulkReconciliation bulk;
  private final VerticalLayout bulkPanel = new VerticalLayout();
  private final com.vaadin.flow.component.progressbar.ProgressBar bulkProgress =
      new com.vaadin.flow.component.progressbar.ProgressBar();
  private final Span bulkStatus = new Span();
  private final VerticalLayout bulkLines = new VerticalLayout();

  final TextField tenant = new TextField(Texts.t("stuck.filter.tenant"));
  final ComboBox<String> operation = new ComboBox<>(Texts.t("stuck.filter.operation"), OPERATIONS);
  final ComboBox<String> lastCheck =
      new ComboBox<>(Texts.t("stuck.filter.last-check"), LAST_CHECKS);
  final IntegerField minAgeMinutes = new IntegerField(Texts.t("stuck.filter.min-age"));
  final com.vaadin.flow.component.datetimepicker.DateTimePicker claimedFrom =
      new com.vaadin.flow.component.datetimepicker.DateTimePicker(
          Texts.t("stuck.filter.claimed-from"));
  final com.vaadin.flow.component.datetimepicker.DateTimePicker claimedBefore =
      new com.vaadin.flow.component.datetimepicker.DateTimePicker(
          Texts.t("stuck.filter.claimed-before"));

  /** The payments of the rows read last, for the order and amount columns (one page at most). */
  private final java.util.Map<KeyRef, KeyPaymentView> paymentsOfRows =
      new java.util.concurrent.ConcurrentHashMap<>();

  final Grid<StuckOperation> grid = new Grid<>();
  private final CallbackDataProvider<StuckOperation, Void> dataProvider;
  private final VerticalLayout detail = new VerticalLayout();
  private StuckFilter filter;
  private final Button resolveChargedButton;
  private final Button resolveNotChargedButton;

  /** The detail shown, for the resolve dialog's restatement; null when none. */
  private StuckOperationDetail shownDetail;

  @Inject
  public StuckOperationsView(
      StuckOperations stuck, OperatorActions actions, BulkReconciliation bulk) {
    this.stuck = stuck;
    this.actions = actions;
    this.bulk = bulk;
    setSizeFull();

    tenant.setId("tenant-filter");
    tenant.setClearButtonVisible(true);
    operation.setId("operation-filter");
    operation.setClearButtonVisible(true);
    lastCheck.setId("last-check-filter");
    lastCheck.setClearButtonVisible(true);
    lastCheck.setItemLabelGenerator(
        value -> StuckFilter.NEVER_CHECKED.equals(value) ? "NEVER_CHECKED" : value);
    minAgeMinutes.setId("min-age-filter");
    minAgeMinutes.setMin(0);
    minAgeMinutes.setStepButtonsVisible(true);
    minAgeMinutes.setValue((int) StuckOperations.DEFAULT_MIN_AGE.toMinutes());
    Button search = new Button(Texts.t("stuck.search"), e -> applyFilter());
    search.setId("search-button");
    search.addThemeVariants(ButtonVariant.LUMO_PRIMARY);
    claimedFrom.setId("claimed-from-filter");
    claimedFrom.setHelperText(Texts.t("stuck.filter.your-zone"));
    claimedBefore.setId("claimed-before-filter");
    claimedBefore.setHelperText(Texts.t("stuck.filter.your-zone"));
    HorizontalLayout filters =
        new HorizontalLayout(
            tenant, operation, lastCheck, minAgeMinutes, claimedFrom, claimedBefore);
    filters.add(search);
    filters.setAlignItems(FlexComponent.Alignment.BASELINE);
    filters.setWrap(true);
    // Enter in any filter field runs the search, as a form's submit would.
    search.addClickShortcut(Key.ENTER).listenOn(filters);

    Button reconcile = new Button(Texts.t("stuck.reconcile"), e -> reconcileSelected());
    reconcile.setId("reconcile-button");
    Button resolveCharged = new Button(Texts.t("stuck.resolve-charged"), e -> resolveAsCharged());
    resolveCharged.setId("resolve-charged-button");
    Button resolveNotCharged =
        new Button(Texts.t("stuck.resolve-not-charged"), e -> resolveAsNotCharged());
    resolveNotCharged.setId("resolve-not-charged-button");
    resolveNotCharged.addThemeVariants(ButtonVariant.LUMO_ERROR);
    resolveChargedButton = resolveCharged;
    resolveNotChargedButton = resolveNotCharged;
    Button reconcileAll = new Button(Texts.t("stuck.reconcile-all"), e -> confirmReconcileAll());
    reconcileAll.setId("reconcile-all-button");
    Button approveOverride = new Button(Texts.t("stuck.approve-override"), e -> approveOverride());
    approveOverride.setId("approve-override-button");
    HorizontalLayout buttons =
        new HorizontalLayout(
            reconcile,
            reconcileAll,
            resolveCharged,
            resolveNotCharged,
            approveOverride,
            // Re-reads the rows and keeps the selection (the rows' identity is their key).
            new AutoRefresh("stuck-auto-refresh", this::reReadRows),
            CsvExport.link(
                "stuck-csv",
                "stuck-operations.csv",
                List.of(
                    "tenant",
                    "operation",
                    "key",
                    "attempt",
                    "claimed_at",
                    "lease_until",
                    "outcome_unknown",
                    "last_check",
                    "last_checked_at"),
                operator ->
                    CsvExport.cells(
                        stuck.page(this.filter, 0, CsvExport.MAX_ROWS),
                        s ->
                            List.of(
                                s.ref().tenant(),
                                s.ref().operation(),
                                s.ref().key(),
                                Integer.toString(s.attempt()),
                                String.valueOf(s.createdAt()),
                                String.valueOf(s.lockedUntil()),
                                Boolean.toString(s.outcomeUnknown()),
                                s.lastCheck() == null ? "" : s.lastCheck(),
                                s.lastCheckedAt() == null ? "" : s.lastCheckedAt().toString())),
                actions::recordExport));

    filter = currentFilter();
    dataProvider =
        new CallbackDataProvider<>(
            query ->
                Notices.call(Texts.t("stuck.reading"), () -> rowsWithTheirPayments(query))
                    .map(List::stream)
                    .orElseGet(Stream::empty),
            query -> Notices.call(Texts.t("stuck.counting"), () -> stuck.count(filter)).orElse(0),
            StuckOperation::ref);
    grid.setId("stuck-grid");
    grid.setSelectionMode(Grid.SelectionMode.MULTI);
    grid.addThemeVariants(GridVariant.LUMO_COMPACT, GridVariant.LUMO_ROW_STRIPES);
    // Sortable columns sort on the server (StuckFilter.Sort); order and amount come from the
    // payments context one page at a time, so they cannot order the whole listing.
    sortable(
        grid.addColumn(s -> s.ref().tenant()).setHeader(Texts.t("stuck.column.customer")),
        Column.TENANT);
    sortable(
        grid.addColumn(s -> s.ref().operation()).setHeader(Texts.t("stuck.column.operation")),
        Column.OPERATION);
    sortable(grid.addColumn(s -> s.ref().key()).setHeader(Texts.t("stuck.column.key")), Column.KEY);
    grid.addColumn(s -> paymentOf(s).map(KeyPaymentView::orderId).orElse(Formats.NONE))
        .setHeader(Texts.t("stuck.column.order"))
        .setAutoWidth(true);
    grid.addColumn(
            s ->
                paymentOf(s).map(p -> Formats.money(p.amount(), p.currency())).orElse(Formats.NONE))
        .setHeader(Texts.t("stuck.column.amount"))
        .setAutoWidth(true);
    sortable(
        grid.addColumn(s -> Formats.age(s.age())).setHeader(Texts.t("stuck.column.age")),
        Column.CLAIMED_AT);
    sortable(
        grid.addColumn(StuckOperation::attempt).setHeader(Texts.t("stuck.column.attempt")),
        Column.ATTEMPT);
    sortable(
        grid.addColumn(s -> Texts.t(s.leaseExpired() ? "stuck.lease.expired" : "stuck.lease.held"))
            .setHeader(Texts.t("stuck.column.lease")),
        Column.LEASE_UNTIL);
    sortable(
        grid.addColumn(s -> Texts.t(s.outcomeUnknown() ? "yes" : "no"))
            .setHeader(Texts.t("stuck.column.outcome-unknown")),
        Column.OUTCOME_UNKNOWN);
    sortable(
        grid.addColumn(s -> Formats.text(s.lastCheck()))
            .setHeader(Texts.t("stuck.column.last-check")),
        Column.LAST_CHECK);
    grid.addColumn(s -> Formats.instant(s.lastCheckedAt()))
        .setSortProperty(Column.LAST_CHECKED_AT.name())
        .setTooltipGenerator(s -> Formats.utc(s.lastCheckedAt()))
        .setHeader(Texts.t("stuck.column.checked-at"))
        .setAutoWidth(true);
    grid.setItems(dataProvider);
    grid.asMultiSelect().addSelectionListener(e -> showDetail(e.getAddedSelection(), e.getValue()));
    // A click on a row opens that row alone (its detail below); the checkboxes, which have no
    // column of their own, still add rows to a selection for the bulk actions.
    grid.addItemClickListener(
        e -> {
          if (e.getColumn() != null) {
            grid.deselectAll();
            grid.select(e.getItem());
          }
        });
    grid.setWidthFull();

    detail.setId("stuck-detail");
    detail.setPadding(false);
    detail.setSpacing(false);
    showDetail(Set.of(), Set.of());

    bulkPanel.setId("bulk-results");
    bulkPanel.setPadding(false);
    bulkPanel.setVisible(false);
    bulkProgress.setId("bulk-progress");
    bulkStatus.setId("bulk-status");
    bulkLines.setId("bulk-lines");
    bulkLines.setPadding(false);
    bulkLines.setSpacing(false);
    bulkPanel.add(new H3(Texts.t("stuck.bulk")), bulkProgress, bulkStatus, bulkLines);

    add(new H2(Texts.t("stuck.title")), filters, buttons, bulkPanel, grid, detail);
  }

  @Override
  public String getPageTitle() {
    return Texts.title("stuck.title");
  }

  private StuckFilter currentFilter() {
    Integer minutes = minAgeMinutes.getValue();
    Duration minAge =
        minutes == null ? StuckOperations.DEFAULT_MIN_AGE : Duration.ofMinutes(minutes);
    return new StuckFilter(
        blankToNull(tenant.getValue()),
        operation.getValue(),
        lastCheck.getValue(),
        minAge,
        Formats.fromOperatorsZone(claimedFrom.getValue()),
        Formats.fromOperatorsZone(claimedBefore.getValue()),
        null);
  }

  private static void sortable(Grid.Column<StuckOperation> column, Column sortBy) {
    column.setSortProperty(sortBy.name()).setAutoWidth(true);
  }

  /**
   * One page in the grid's order (the first sorted column, on the server), with the payments of its
   * payments.charge rows.
   */
  private List<StuckOperation> rowsWithTheirPayments(
      com.vaadin.flow.data.provider.Query<StuckOperation, Void> query) {
    StuckFilter.Sort sort =
        query.getSortOrders().stream()
            .findFirst()
            .map(
                order ->
                    new StuckFilter.Sort(
                        Column.valueOf(order.getSorted()),
                        order.getDirection()
                            == com.vaadin.flow.data.provider.SortDirection.DESCENDING))
            .orElse(null);
    List<StuckOperation> rows =
        stuck.page(
            sort == null ? filter : filter.sortedBy(sort), query.getOffset(), query.getLimit());
    paymentsOfRows.putAll(stuck.paymentsOf(rows));
    return rows;
  }

  private Optional<KeyPaymentView> paymentOf(StuckOperation row) {
    return Optional.ofNullable(paymentsOfRows.get(row.ref()));
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value.trim();
  }

  void applyFilter() {
    filter = currentFilter();
    paymentsOfRows.clear();
    refresh();
  }

  /** Re-reads the rows; the selection stays (a row's identity is its key). */
  private void reReadRows() {
    dataProvider.refreshAll();
  }

  private void refresh() {
    grid.deselectAll();
    dataProvider.refreshAll();
  }

  /**
   * A link from another page (Key lookup, a payment page, a ticket): {@code ?tenant=&key=} shows
   * that tenant's stuck keys of every age and selects the key.
   */
  @Override
  public void beforeEnter(com.vaadin.flow.router.BeforeEnterEvent event) {
    Map<String, List<String>> params = event.getLocation().getQueryParameters().getParameters();
    String linkedTenant = first(params, "tenant");
    String linkedKey = first(params, "key");
    if (linkedTenant == null) {
      return;
    }
    tenant.setValue(linkedTenant);
    String linkedOperation = first(params, "operation");
    operation.setValue(linkedOperation == null ? null : linkedOperation);
    minAgeMinutes.setValue(0);
    applyFilter();
    if (linkedKey != null && linkedOperation != null) {
      Notices.call(
              Texts.t("stuck.reading-linked"),
              () -> stuck.detail(new KeyRef(linkedTenant, linkedOperation, linkedKey)).orElse(null))
          .ifPresent(d -> grid.select(d.operation()));
    }
  }

  private static String first(Map<String, List<String>> params, String name) {
    List<String> values = params.get(name);
    return values == null || values.isEmpty() || values.get(0).isBlank() ? null : values.get(0);
  }

  private void showDetail(Set<StuckOperation> added, Set<StuckOperation> selected) {
    detail.removeAll();
    shownDetail = null;
    resolveChargedButton.setEnabled(false);
    resolveNotChargedButton.setEnabled(false);
    Optional<StuckOperation> shown =
        added.stream().findFirst().or(() -> selected.stream().findFirst());
    if (shown.isEmpty()) {
      detail.add(new Span(Texts.t("stuck.detail.select")));
      return;
    }
    Notices.call(
            Texts.t("stuck.detail.reading"), () -> stuck.detail(shown.get().ref()).orElse(null))
        .ifPresentOrElse(
            this::renderDetail, () -> detail.add(new Span(Texts.t("stuck.detail.gone"))));
  }

  private void renderDetail(StuckOperationDetail d) {
    StuckOperation op = d.operation();
    shownDetail = d;
    // Offered only where an operator's word is needed (PaymentResolution.resolvable); the
    // resolution refuses by the same rule on the server.
    boolean resolvable =
        grid.getSelectedItems().size() == 1
            && PaymentResolution.resolvable(op.lastCheck(), op.leaseExpired());
    resolveChargedButton.setEnabled(resolvable);
    resolveNotChargedButton.setEnabled(resolvable);
    FormLayout form = new FormLayout();
    form.setResponsiveSteps(new FormLayout.ResponsiveStep("0", 3));
    field(form, Texts.t("stuck.detail.tenant"), op.ref().tenant());
    field(form, Texts.t("stuck.detail.operation"), op.ref().operation());
    field(form, Texts.t("stuck.detail.key"), op.ref().key());
    field(form, Texts.t("stuck.detail.fingerprint"), d.fingerprint());
    field(form, Texts.t("stuck.detail.attempt"), Integer.toString(op.attempt()));
    field(
        form,
        Texts.t("stuck.detail.lease-until"),
        Texts.t(
            op.leaseExpired() ? "stuck.detail.lease.expired" : "stuck.detail.lease.held",
            Formats.instant(op.lockedUntil())));
    form.addFormItem(Formats.time(op.createdAt()), Texts.t("stuck.detail.created"));
    form.addFormItem(Formats.time(d.expiresAt()), Texts.t("stuck.detail.expires"));
    field(
        form, Texts.t("stuck.detail.outcome-unknown"), Texts.t(op.outcomeUnknown() ? "yes" : "no"));
    field(form, Texts.t("stuck.detail.last-check"), Formats.text(op.lastCheck()));
    form.addFormItem(Formats.time(op.lastCheckedAt()), Texts.t("stuck.detail.checked-at"));
    field(form, Texts.t("stuck.detail.check-detail"), Formats.text(d.lastCheckDetail()));
    H3 title = new H3(Texts.t("stuck.detail.title", op.ref().key()));
    com.vaadin.flow.component.html.Anchor keyLink =
        new com.vaadin.flow.component.html.Anchor(
            KeyLookupView.link(op.ref()), Texts.t("stuck.detail.key-link"));
    keyLink.setId("stuck-key-link");
    detail.add(title, form, keyLink);
    if (!resolvable) {
      Span why = new Span(Texts.t("stuck.resolve-not-offered"));
      why.setId("resolve-not-offered");
      detail.add(why);
    }
    Optional<KeyPaymentView> payment = d.payment() == null ? Optional.empty() : d.payment();
    payment.ifPresent(
        p -> {
          FormLayout pay = new FormLayout();
          pay.setResponsiveSteps(new FormLayout.ResponsiveStep("0", 3));
          field(pay, Texts.t("stuck.payment.id"), p.paymentId());
          field(pay, Texts.t("stuck.payment.order"), p.orderId());
          field(pay, Texts.t("stuck.payment.amount"), Formats.money(p.amount(), p.currency()));
          field(pay, Texts.t("stuck.payment.status"), p.status());
          field(pay, Texts.t("stuck.payment.gateway-key"), p.gatewayKey());
          field(pay, Texts.t("stuck.payment.gateway-charge"), Formats.text(p.gatewayChargeId()));
          pay.addFormItem(Formats.time(p.createdAt()), Texts.t("stuck.payment.created"));
          com.vaadin.flow.component.html.Anchor open =
              new com.vaadin.flow.component.html.Anchor(
                  PaymentView.link(p.paymentId()), Texts.t("stuck.payment.link"));
          open.setId("stuck-payment-link");
          detail.add(new H3(Texts.t("stuck.payment")), pay, open);
        });
  }

  private static void field(FormLayout form, String label, String value) {
    Span span = Formats.value(value);
    form.addFormItem(span, label);
  }

  void reconcileSelected() {
    List<KeyRef> keys = grid.getSelectedItems().stream().map(StuckOperation::ref).toList();
    if (keys.isEmpty()) {
      Notices.error(Texts.t("stuck.select-keys"));
      return;
    }
    act(Texts.t("stuck.reconciling"), () -> actions.reconcile(OperatorSession.currentName(), keys));
  }

  private Optional<KeyRef> singleSelection() {
    Set<StuckOperation> selected = grid.getSelectedItems();
    if (selected.size() != 1) {
      Notices.error(Texts.t("stuck.select-one"));
      return Optional.empty();
    }
    return Optional.of(selected.iterator().next().ref());
  }

  void resolveAsCharged() {
    singleSelection()
        .ifPresent(
            ref ->
                new ResolveDialog(
                        Texts.t("stuck.resolve-charged.title", ref.key()),
                        true,
                        restatement(),
                        (chargeId, reason) -> resolveAsCharged(ref, chargeId, reason))
                    .open());
  }

  private boolean resolveAsCharged(KeyRef ref, String chargeId, String reason) {
    String operator = OperatorSession.currentName();
    Optional<ActionResult> result =
        act(
            Texts.t("stuck.resolve-charged"),
            () -> actions.resolveAsCharged(operator, ref, chargeId, reason, false));
    if (result.isPresent() && result.get().status() == ActionResult.Status.CONFIRMATION_NEEDED) {
      new OverrideDialog(
              result.get().message(),
              () ->
                  act(
                      Texts.t("stuck.resolve-charged.override"),
                      () -> actions.resolveAsCharged(operator, ref, chargeId, reason, true)))
          .open();
    }
    return result.isPresent();
  }

  /**
   * Approves the override another operator proposed for the selected key (docs/operations.md,
   * "Overrides need a second operator"); the proposer's own approval is refused by the service.
   */
  void approveOverride() {
    singleSelection()
        .ifPresent(
            ref -> {
              Optional<OverrideProposal> proposal =
                  Notices.call(Texts.t("stuck.reading-proposals"), actions::pendingOverrides)
                      .flatMap(
                          pending -> pending.stream().filter(p -> p.ref().equals(ref)).findFirst());
              if (proposal.isEmpty()) {
                Notices.error(Texts.t("stuck.no-proposal"));
                return;
              }
              OverrideProposal waiting = proposal.get();
              new OverrideDialog(
                      Texts.t(
                          "stuck.proposal",
                          waiting.proposedBy(),
                          waiting.chargeId(),
                          waiting.reason()),
                      () ->
                          act(
                              Texts.t("stuck.approve-override"),
                              () ->
                                  actions.approveOverride(
                                      OperatorSession.currentName(), waiting.id())))
                  .open();
            });
  }

  void resolveAsNotCharged() {
    singleSelection()
        .ifPresent(
            ref ->
                new ResolveDialog(
                        Texts.t("stuck.resolve-not-charged.title", ref.key()),
                        false,
                        restatement(),
                        (chargeId, reason) ->
                            act(
                                    Texts.t("stuck.resolve-not-charged"),
                                    () ->
                                        actions.resolveAsNotCharged(
                                            OperatorSession.currentName(), ref, reason))
                                .isPresent())
                    .open());
  }

  private ResolveDialog.Restatement restatement() {
    StuckOperationDetail d = shownDetail;
    if (d == null) {
      return null;
    }
    Optional<KeyPaymentView> payment = d.payment() == null ? Optional.empty() : d.payment();
    return new ResolveDialog.Restatement(
        d.operation().ref().tenant(),
        payment.map(KeyPaymentView::orderId).orElse(null),
        payment.map(p -> Formats.money(p.amount(), p.currency())).orElse(null),
        d.lastCheckDetail());
  }

  /**
   * Asks before reconciling every payments.charge key the current filter matches (each one asks the
   * gateway), then starts the job on a managed thread; its progress comes back by push.
   */
  void confirmReconcileAll() {
    StuckFilter matching = currentFilter();
    int count =
        Notices.call(
                Texts.t("stuck.counting"),
                () ->
                    stuck.count(
                        new StuckFilter(
                            matching.tenant(),
                            PAYMENTS_CHARGE,
                            matching.lastCheck(),
                            matching.minAge(),
                            matching.claimedFrom(),
                            matching.claimedBefore(),
                            null)))
            .orElse(0);
    if (count == 0) {
      Notices.error(Texts.t("stuck.reconcile-all.none"));
      return;
    }
    com.vaadin.flow.component.confirmdialog.ConfirmDialog confirm =
        new com.vaadin.flow.component.confirmdialog.ConfirmDialog();
    confirm.setId("reconcile-all-confirm-dialog");
    confirm.setHeader(Texts.t("stuck.reconcile-all.header", count));
    confirm.setText(Texts.t("stuck.reconcile-all.text", BulkReconciliation.MAX_KEYS));
    Button yes = new Button(Texts.t("stuck.reconcile-all.confirm"), e -> confirm.close());
    yes.setId("reconcile-all-confirm-button");
    yes.addThemeVariants(ButtonVariant.LUMO_PRIMARY);
    yes.addClickListener(e -> startReconcileAll(matching));
    confirm.setConfirmButton(yes);
    confirm.setCancelable(true);
    // The component's own caption is English whatever the bundle says.
    confirm.setCancelText(Texts.t("dialog.cancel"));
    confirm.open();
  }

  private void startReconcileAll(StuckFilter matching) {
    com.vaadin.flow.component.UI ui = com.vaadin.flow.component.UI.getCurrent();
    Notices.call(
            Texts.t("stuck.bulk.starting"),
            () ->
                bulk.start(
                    OperatorSession.currentName(), matching, job -> ui.access(() -> showBulk(job))))
        .ifPresent(
            job -> {
              com.vaadin.flow.server.VaadinSession.getCurrent()
                  .setAttribute(BULK_JOB_ATTRIBUTE, job.id());
              showBulk(job);
            });
  }

  /** The last job of this session, shown again when the operator comes back to the view. */
  @Override
  protected void onAttach(com.vaadin.flow.component.AttachEvent attachEvent) {
    super.onAttach(attachEvent);
    Object id = attachEvent.getSession().getAttribute(BULK_JOB_ATTRIBUTE);
    if (id instanceof Long jobId) {
      bulk.find(jobId).ifPresent(this::showBulk);
    }
  }

  private void showBulk(BulkReconciliation.JobView job) {
    bulkPanel.setVisible(true);
    if (job.total() < 0) {
      bulkProgress.setIndeterminate(true);
      bulkStatus.setText(Texts.t("stuck.bulk.reading", job.id()));
      return;
    }
    bulkProgress.setIndeterminate(false);
    bulkProgress.setValue(job.total() == 0 ? 1 : (double) job.done() / job.total());
    String status =
        Texts.t(
            job.running() ? "stuck.bulk.running" : "stuck.bulk.finished",
            job.id(),
            job.operator(),
            job.done(),
            job.total());
    if (!job.findings().isEmpty()) {
      status = Texts.t("stuck.bulk.findings", status, findings(job));
    }
    if (job.failure() != null) {
      status = Texts.t("stuck.bulk.stopped", status, job.failure());
    }
    bulkStatus.setText(status);
    bulkLines.removeAll();
    job.lines().forEach(line -> bulkLines.add(new Span(line)));
    if (!job.running()) {
      reReadRows();
    }
  }

  private static String findings(BulkReconciliation.JobView job) {
    return job.findings().entrySet().stream()
        .map(e -> e.getKey() + "=" + e.getValue())
        .collect(java.util.stream.Collectors.joining(", "));
  }

  /** Calls an action, shows its result at once and re-reads the grid. */
  private Optional<ActionResult> act(String what, java.util.function.Supplier<ActionResult> call) {
    return Notices.act(what, call, this::refresh);
  }
}
