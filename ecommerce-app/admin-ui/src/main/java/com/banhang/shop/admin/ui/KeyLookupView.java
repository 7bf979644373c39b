package com.banhang.shop.admin.ui;

import com.banhang.shop.admin.application.KeyDetails;
import com.banhang.shop.admin.application.KeyLookup;
import com.banhang.shop.admin.application.KeyRef;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.combobox.ComboBox;
import com.vaadin.flow.component.formlayout.FormLayout;
import com.vaadin.flow.component.html.H2;
import com.vaadin.flow.component.html.Paragraph;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.orderedlayout.FlexComponent;
import com.vaadin.flow.component.orderedlayout.HorizontalLayout;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.component.textfield.TextArea;
import com.vaadin.flow.component.textfield.TextField;
import com.vaadin.flow.router.PageTitle;
import com.vaadin.flow.router.Route;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** One key, whatever its state, with its stored answer (money and card fields masked). */
@Route(value = "keys", layout = MainLayout.class)
@PageTitle("Key lookup | BanHang operator console")
public class KeyLookupView extends VerticalLayout
    implements com.vaadin.flow.router.BeforeEnterObserver {

  static final String NOT_FOUND = "Not found: no such key for this tenant and operation.";

  private final KeyLookup lookup;
  final TextField tenant = new TextField("Tenant");
  final ComboBox<String> operation = new ComboBox<>("Operation", StuckOperationsView.OPERATIONS);
  final TextField key = new TextField("Idempotency key");
  private final VerticalLayout result = new VerticalLayout();

  @Inject
  public KeyLookupView(KeyLookup lookup) {
    this.lookup = lookup;
    setWidthFull();
    tenant.setId("key-tenant-field");
    tenant.setRequiredIndicatorVisible(true);
    operation.setId("key-operation-field");
    operation.setAllowCustomValue(true);
    operation.addCustomValueSetListener(e -> operation.setValue(e.getDetail()));
    operation.setRequiredIndicatorVisible(true);
    key.setId("key-field");
    key.setRequiredIndicatorVisible(true);
    key.setWidth("24em");
    Button find = new Button("Look up", e -> lookUp());
    find.setId("lookup-button");
    find.addThemeVariants(ButtonVariant.LUMO_PRIMARY);
    find.addClickShortcut(com.vaadin.flow.component.Key.ENTER);
    HorizontalLayout form = new HorizontalLayout(tenant, operation, key, find);
    form.setAlignItems(FlexComponent.Alignment.BASELINE);
    form.setWrap(true);

    result.setId("key-result");
    result.setPadding(false);
    add(new H2("Key lookup"), form, result);
  }

  /** The address of one key's page: a link a colleague can open from a ticket. */
  static String link(KeyRef ref) {
    return "keys?"
        + com.vaadin.flow.router.QueryParameters.simple(
                Map.of("tenant", ref.tenant(), "operation", ref.operation(), "key", ref.key()))
            .getQueryString();
  }

  /** {@code ?tenant=&operation=&key=} (a link): filled in and looked up at once. */
  @Override
  public void beforeEnter(com.vaadin.flow.router.BeforeEnterEvent event) {
    Map<String, List<String>> params = event.getLocation().getQueryParameters().getParameters();
    String t = first(params, "tenant");
    String o = first(params, "operation");
    String k = first(params, "key");
    if (t != null && o != null && k != null) {
      tenant.setValue(t);
      operation.setValue(o);
      key.setValue(k);
      lookUp();
    }
  }

  private static String first(Map<String, List<String>> params, String name) {
    List<String> values = params.get(name);
    return values == null || values.isEmpty() || values.get(0).isBlank() ? null : values.get(0);
  }

  void lookUp() {
    result.removeAll();
    String t = tenant.getValue().trim();
    String o = operation.getValue() == null ? "" : operation.getValue().trim();
    String k = key.getValue().trim();
    if (t.isEmpty() || o.isEmpty() || k.isEmpty()) {
      Notices.error("Tenant, operation and key are all needed.");
      return;
    }
    KeyRef ref = new KeyRef(t, o, k);
    Notices.call("Key lookup", () -> lookup.find(ref))
        .ifPresent(
            found ->
                found.ifPresentOrElse(
                    this::show,
                    () -> {
                      Span notFound = new Span(NOT_FOUND);
                      notFound.setId("key-not-found");
                      result.add(notFound);
                    }));
  }

  private void show(KeyDetails d) {
    FormLayout form = new FormLayout();
    form.setId("key-details");
    form.setResponsiveSteps(new FormLayout.ResponsiveStep("0", 3));
    field(form, "Status", d.status(), "key-status");
    field(form, "Outcome unknown", d.outcomeUnknown() ? "yes" : "no", null);
    field(form, "Attempt", Integer.toString(d.attempt()), null);
    field(form, "Fingerprint", d.fingerprint(), null);
    form.addFormItem(Formats.time(d.createdAt()), "Created");
    form.addFormItem(Formats.time(d.completedAt()), "Completed");
    form.addFormItem(Formats.time(d.expiresAt()), "Expires");
    form.addFormItem(Formats.time(d.lockedUntil()), "Lease until");
    field(form, "Stored status code", Formats.text(d.responseStatus()), "key-response-status");
    field(form, "Last reconciliation", Formats.text(d.lastCheck()), null);
    form.addFormItem(Formats.time(d.lastCheckedAt()), "Checked at");
    result.add(form);

    TextArea headers = new TextArea("Stored headers");
    headers.setId("key-headers");
    headers.setReadOnly(true);
    headers.setWidthFull();
    headers.setValue(headers(d.responseHeaders()));
    TextArea body = new TextArea("Stored body (masked)");
    body.setId("key-body");
    body.setReadOnly(true);
    body.setWidthFull();
    body.getStyle().set("font-family", "monospace");
    body.setValue(d.maskedBody() == null ? "(no body stored)" : d.maskedBody());
    result.add(headers, body);
    HorizontalLayout links = new HorizontalLayout();
    if ("PROCESSING".equals(d.status())) {
      com.vaadin.flow.component.html.Anchor stuckRow =
          new com.vaadin.flow.component.html.Anchor(
              StuckOperationsView.link(d.ref()), "Show in Stuck operations");
      stuckRow.setId("key-stuck-link");
      links.add(stuckRow);
    }
    if (StuckOperationsView.PAYMENTS_CHARGE.equals(d.ref().operation())) {
      com.vaadin.flow.component.html.Anchor payments =
          new com.vaadin.flow.component.html.Anchor(
              SearchView.link(d.ref().key()), "Payments of this key");
      payments.setId("key-payments-link");
      links.add(payments);
    }
    result.add(links);
    if (d.maskedBody() == null && d.responseStatus() == null) {
      result.add(new Paragraph("No answer stored yet: the key is still processing or released."));
    }
  }

  private static String headers(Map<String, List<String>> headers) {
    if (headers == null || headers.isEmpty()) {
      return "(none)";
    }
    return headers.entrySet().stream()
        .map(e -> e.getKey() + ": " + String.join(", ", e.getValue()))
        .collect(Collectors.joining("\n"));
  }

  private static void field(FormLayout form, String label, String value, String id) {
    Span span = Formats.value(value);
    if (id != null) {
      span.setId(id);
    }
    form.addFormItem(span, label);
  }
}
