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
import com.vaadin.flow.router.PageTitle;
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
@PageTitle("Stuck operations | BanHang operator console")
public class StuckOperationsView extends VerticalLayout
    implements com.vaadin.flow.router.BeforeEnterObserver {

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

  final TextField tenant = new TextField("Tenant");
  final ComboBox<String> operation = new ComboBox<>("Operation", OPERATIONS);
  final ComboBox<String> lastCheck = new ComboBox<>("Last reconciliation finding", LAST_CHECKS);
  final IntegerField minAgeMinutes = new IntegerField("Min age (minutes)");
  final com.vaadin.flow.component.datetimepicker.DateTimePicker claimedFrom =
      new com.vaadin.flow.component.datetimepicker.DateTimePicker("Claimed from");
  final com.vaadin.flow.component.datetimepicker.DateTimePicker claimedBefore =
      new com.vaadin.flow.component.datetimepicker.DateTimePicker("Claimed before");

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
    Button search = new Button("Search", e -> applyFilter());
    search.setId("search-button");
    search.addThemeVariants(ButtonVariant.LUMO_PRIMARY);
    claimedFrom.setId("claimed-from-filter");
    claimedFrom.setHelperText("your time zone");
    claimedBefore.setId("claimed-before-filter");
    claimedBefore.setHelperText("your time zone");
    HorizontalLayout filters =
        new HorizontalLayout(
            tenant, operation, lastCheck, minAgeMinutes, claimedFrom, claimedBefore);
    filters.add(search);
    filters.setAlignItems(FlexComponent.Alignment.BASELINE);
    filters.setWrap(true);

    Button reconcile = new Button("Reconcile now", e -> reconcileSelected());
    reconcile.setId("reconcile-button");
    Button resolveCharged = new Button("Resolve as charged", e -> resolveAsCharged());
    resolveCharged.setId("resolve-charged-button");
    Button resolveNotCharged = new Button("Resolve as not charged", e -> resolveAsNotCharged());
    resolveNotCharged.setId("resolve-not-charged-button");
    resolveNotCharged.addThemeVariants(ButtonVariant.LUMO_ERROR);
    resolveChargedButton = resolveCharged;
    resolveNotChargedButton = resolveNotCharged;
    Button reconcileAll = new Button("Reconcile all matching", e -> confirmReconcileAll());
    reconcileAll.setId("reconcile-all-button");
    Button approveOverride = new Button("Approve override", e -> approveOverride());
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
                Notices.call("Reading stuck operations", () -> rowsWithTheirPayments(query))
                    .map(List::stream)
                    .orElseGet(Stream::empty),
            query -> Notices.call("Counting stuck operations", () -> stuck.count(filter)).orElse(0),
            StuckOperation::ref);
    grid.setId("stuck-grid");
    grid.setSelectionMode(Grid.SelectionMode.MULTI);
    grid.addThemeVariants(GridVariant.LUMO_COMPACT, GridVariant.LUMO_ROW_STRIPES);
    // Sortable columns sort on the server (StuckFilter.Sort); order and amount come from the
    // payments context one page at a time, so they cannot order the whole listing.
    sortable(grid.addColumn(s -> s.ref().tenant()).setHeader("Customer"), Column.TENANT);
    sortable(grid.addColumn(s -> s.ref().operation()).setHeader("Operation"), Column.OPERATION);
    sortable(grid.addColumn(s -> s.ref().key()).setHeader("Key"), Column.KEY);
    grid.addColumn(s -> paymentOf(s).map(KeyPaymentView::orderId).orElse(Formats.NONE))
        .setHeader("Order")
        .setAutoWidth(true);
    grid.addColumn(
            s ->
                paymentOf(s).map(p -> Formats.money(p.amount(), p.currency())).orElse(Formats.NONE))
        .setHeader("Amount")
        .setAutoWidth(true);
    sortable(grid.addColumn(s -> Formats.age(s.age())).setHeader("Age"), Column.CLAIMED_AT);
    sortable(grid.addColumn(StuckOperation::attempt).setHeader("Attempt"), Column.ATTEMPT);
    sortable(
        grid.addColumn(s -> s.leaseExpired() ? "expired" : "held").setHeader("Lease"),
        Column.LEASE_UNTIL);
    sortable(
        grid.addColumn(s -> s.outcomeUnknown() ? "yes" : "no").setHeader("Outcome unknown"),
        Column.OUTCOME_UNKNOWN);
    sortable(
        grid.addColumn(s -> Formats.text(s.lastCheck())).setHeader("Last check"),
        Column.LAST_CHECK);
    grid.addColumn(s -> Formats.instant(s.lastCheckedAt()))
        .setSortProperty(Column.LAST_CHECKED_AT.name())
        .setTooltipGenerator(s -> Formats.utc(s.lastCheckedAt()))
        .setHeader("Checked at")
        .setAutoWidth(true);
    grid.setItems(dataProvider);
    grid.asMultiSelect().addSelectionListener(e -> showDetail(e.getAddedSelection(), e.getValue()));
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
    bulkPanel.add(new H3("Bulk reconciliation"), bulkProgress, bulkStatus, bulkLines);

    add(new H2("Stuck operations"), filters, buttons, bulkPanel, grid, detail);
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
              "Reading the linked key",
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
      detail.add(new Span("Select a row to see its detail."));
      return;
    }
    Notices.call("Reading the detail", () -> stuck.detail(shown.get().ref()).orElse(null))
        .ifPresentOrElse(
            this::renderDetail,
            () -> detail.add(new Span("No detail: the key is no longer processing.")));
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
    field(form, "Tenant", op.ref().tenant());
    field(form, "Operation", op.ref().operation());
    field(form, "Key", op.ref().key());
    field(form, "Fingerprint", d.fingerprint());
    field(form, "Attempt", Integer.toString(op.attempt()));
    field(
        form,
        "Lease until",
        Formats.instant(op.lockedUntil()) + (op.leaseExpired() ? " (expired)" : " (held)"));
    form.addFormItem(Formats.time(op.createdAt()), "Created");
    form.addFormItem(Formats.time(d.expiresAt()), "Expires");
    field(form, "Outcome unknown", op.outcomeUnknown() ? "yes" : "no");
    field(form, "Last reconciliation", Formats.text(op.lastCheck()));
    form.addFormItem(Formats.time(op.lastCheckedAt()), "Checked at");
    field(form, "Check detail", Formats.text(d.lastCheckDetail()));
    H3 title = new H3("Detail of " + op.ref().key());
    com.vaadin.flow.component.html.Anchor keyLink =
        new com.vaadin.flow.component.html.Anchor(
            KeyLookupView.link(op.ref()), "Open in Key lookup");
    keyLink.setId("stuck-key-link");
    detail.add(title, form, keyLink);
    if (!resolvable) {
      Span why =
          new Span(
              "Resolve is offered once reconciliation needs an operator, or once the lease has"
                  + " run out and the key was checked at least once.");
      why.setId("resolve-not-offered");
      detail.add(why);
    }
    Optional<KeyPaymentView> payment = d.payment() == null ? Optional.empty() : d.payment();
    payment.ifPresent(
        p -> {
          FormLayout pay = new FormLayout();
          pay.setResponsiveSteps(new FormLayout.ResponsiveStep("0", 3));
          field(pay, "Payment", p.paymentId());
          field(pay, "Order", p.orderId());
          field(pay, "Amount", Formats.money(p.amount(), p.currency()));
          field(pay, "Status", p.status());
          field(pay, "Gateway key", p.gatewayKey());
          field(pay, "Gateway charge", Formats.text(p.gatewayChargeId()));
          pay.addFormItem(Formats.time(p.createdAt()), "Attempt created");
          com.vaadin.flow.component.html.Anchor open =
              new com.vaadin.flow.component.html.Anchor(
                  PaymentView.link(p.paymentId()), "Open the payment page");
          open.setId("stuck-payment-link");
          detail.add(new H3("Payment"), pay, open);
        });
  }

  private static void field(FormLayout form, String label, String value) {
    Span span = Formats.value(value);
    form.addFormItem(span, label);
  }

  void reconcileSelected() {
    List<KeyRef> keys = grid.getSelectedItems().stream().map(StuckOperation::ref).toList();
    if (keys.isEmpty()) {
      Notices.error("Select the keys to reconcile first.");
      return;
    }
    act("Reconcile", () -> actions.reconcile(OperatorSession.currentName(), keys));
  }

  private Optional<KeyRef> singleSelection() {
    Set<StuckOperation> selected = grid.getSelectedItems();
    if (selected.size() != 1) {
      Notices.error("Select exactly one key to resolve.");
      return Optional.empty();
    }
    return Optional.of(selected.iterator().next().ref());
  }

  void resolveAsCharged() {
    singleSelection()
        .ifPresent(
            ref ->
                new ResolveDialog(
                        "Resolve " + ref.key() + " as charged",
                        true,
                        restatement(),
                        (chargeId, reason) -> resolveAsCharged(ref, chargeId, reason))
                    .open());
  }

  private boolean resolveAsCharged(KeyRef ref, String chargeId, String reason) {
    String operator = OperatorSession.currentName();
    Optional<ActionResult> result =
        act(
            "Resolve as charged",
            () -> actions.resolveAsCharged(operator, ref, chargeId, reason, false));
    if (result.isPresent() && result.get().status() == ActionResult.Status.CONFIRMATION_NEEDED) {
      new OverrideDialog(
              result.get().message(),
              () ->
                  act(
                      "Resolve as charged (override)",
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
                  Notices.call("Reading override proposals", actions::pendingOverrides)
                      .flatMap(
                          pending -> pending.stream().filter(p -> p.ref().equals(ref)).findFirst());
              if (proposal.isEmpty()) {
                Notices.error("No override proposal waits for approval on this key.");
                return;
              }
              OverrideProposal waiting = proposal.get();
              new OverrideDialog(
                      "Proposed by "
                          + waiting.proposedBy()
                          + ": charge "
                          + waiting.chargeId()
                          + ", "
                          + waiting.reason(),
                      () ->
                          act(
                              "Approve override",
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
                        "Resolve " + ref.key() + " as not charged",
                        false,
                        restatement(),
                        (chargeId, reason) ->
                            act(
                                    "Resolve as not charged",
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
                "Counting stuck operations",
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
      Notices.error("No payments.charge key matches the filter: nothing to reconcile.");
      return;
    }
    com.vaadin.flow.component.confirmdialog.ConfirmDialog confirm =
        new com.vaadin.flow.component.confirmdialog.ConfirmDialog();
    confirm.setId("reconcile-all-confirm-dialog");
    confirm.setHeader("Reconcile " + count + " payments.charge keys?");
    confirm.setText(
        "Each key matching the filter is reconciled in turn, as Reconcile now does (at most "
            + BulkReconciliation.MAX_KEYS
            + " in one job), and audited under your name. It runs in the background: you may"
            + " leave this page and come back to its results.");
    Button yes = new Button("Reconcile all", e -> confirm.close());
    yes.setId("reconcile-all-confirm-button");
    yes.addThemeVariants(ButtonVariant.LUMO_PRIMARY);
    yes.addClickListener(e -> startReconcileAll(matching));
    confirm.setConfirmButton(yes);
    confirm.setCancelable(true);
    confirm.open();
  }

  private void startReconcileAll(StuckFilter matching) {
    com.vaadin.flow.component.UI ui = com.vaadin.flow.component.UI.getCurrent();
    Notices.call(
            "Starting the bulk reconciliation",
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
      bulkStatus.setText("Job " + job.id() + ": reading the matching keys…");
      return;
    }
    bulkProgress.setIndeterminate(false);
    bulkProgress.setValue(job.total() == 0 ? 1 : (double) job.done() / job.total());
    bulkStatus.setText(
        "Job "
            + job.id()
            + " by "
            + job.operator()
            + ": "
            + job.done()
            + " of "
            + job.total()
            + " keys"
            + (job.running() ? " so far" : ", finished")
            + (job.findings().isEmpty() ? "" : " (" + findings(job) + ")")
            + (job.failure() == null ? "" : "; stopped: " + job.failure()));
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
    Optional<ActionResult> result = Notices.call(what, call);
    result.ifPresent(Notices::result);
    refresh();
    return result;
  }
}
