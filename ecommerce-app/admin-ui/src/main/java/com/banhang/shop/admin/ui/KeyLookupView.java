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
import com.vaadin.flow.router.HasDynamicTitle;
import com.vaadin.flow.router.Route;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** One key, whatever its state, with its stored answer (money and card fields masked). */
@Route(value = "keys", layout = MainLayout.class)
public class KeyLookupView extends VerticalLayout
    implements com.vaadin.flow.router.BeforeEnterObserver, HasDynamicTitle {

  private final KeyLookup lookup;
  final TextField tenant = new TextField(Texts.t("keys.tenant"));
  final ComboBox<String> operation =
      new ComboBox<>(Texts.t("keys.operation"), StuckOperationsView.OPERATIONS);
  final TextField key = new TextField(Texts.t("keys.key"));
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
    Button find = new Button(Texts.t("keys.look-up"), e -> lookUp());
    find.setId("lookup-button");
    find.addThemeVariants(ButtonVariant.LUMO_PRIMARY);
    find.addClickShortcut(com.vaadin.flow.component.Key.ENTER);
    HorizontalLayout form = new HorizontalLayout(tenant, operation, key, find);
    form.setAlignItems(FlexComponent.Alignment.BASELINE);
    form.setWrap(true);

    result.setId("key-result");
    result.setPadding(false);
    add(new H2(Texts.t("keys.title")), form, result);
  }

  @Override
  public String getPageTitle() {
    return Texts.title("keys.title");
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
      Notices.error(Texts.t("keys.incomplete"));
      return;
    }
    KeyRef ref = new KeyRef(t, o, k);
    Notices.call(Texts.t("keys.title"), () -> lookup.find(ref))
        .ifPresent(
            found ->
                found.ifPresentOrElse(
                    this::show,
                    () -> {
                      Span notFound = new Span(Texts.t("keys.not-found"));
                      notFound.setId("key-not-found");
                      result.add(notFound);
                    }));
  }

  private void show(KeyDetails d) {
    FormLayout form = new FormLayout();
    form.setId("key-details");
    form.setResponsiveSteps(new FormLayout.ResponsiveStep("0", 3));
    field(form, Texts.t("keys.status"), d.status(), "key-status");
    field(form, Texts.t("keys.outcome-unknown"), Texts.t(d.outcomeUnknown() ? "yes" : "no"), null);
    field(form, Texts.t("keys.attempt"), Integer.toString(d.attempt()), null);
    field(form, Texts.t("keys.fingerprint"), d.fingerprint(), null);
    form.addFormItem(Formats.time(d.createdAt()), Texts.t("keys.created"));
    form.addFormItem(Formats.time(d.completedAt()), Texts.t("keys.completed"));
    form.addFormItem(Formats.time(d.expiresAt()), Texts.t("keys.expires"));
    form.addFormItem(Formats.time(d.lockedUntil()), Texts.t("keys.lease-until"));
    field(
        form,
        Texts.t("keys.stored-status"),
        Formats.text(d.responseStatus()),
        "key-response-status");
    field(form, Texts.t("keys.last-check"), Formats.text(d.lastCheck()), null);
    form.addFormItem(Formats.time(d.lastCheckedAt()), Texts.t("keys.checked-at"));
    result.add(form);

    TextArea headers = new TextArea(Texts.t("keys.headers"));
    headers.setId("key-headers");
    headers.setReadOnly(true);
    headers.setWidthFull();
    headers.setValue(headers(d.responseHeaders()));
    TextArea body = new TextArea(Texts.t("keys.body"));
    body.setId("key-body");
    body.setReadOnly(true);
    body.setWidthFull();
    body.getStyle().set("font-family", "monospace");
    body.setValue(d.maskedBody() == null ? Texts.t("keys.body.none") : d.maskedBody());
    result.add(headers, body);
    HorizontalLayout links = new HorizontalLayout();
    if ("PROCESSING".equals(d.status())) {
      com.vaadin.flow.component.html.Anchor stuckRow =
          new com.vaadin.flow.component.html.Anchor(
              StuckOperationsView.link(d.ref()), Texts.t("keys.stuck-link"));
      stuckRow.setId("key-stuck-link");
      links.add(stuckRow);
    }
    if (StuckOperationsView.PAYMENTS_CHARGE.equals(d.ref().operation())) {
      com.vaadin.flow.component.html.Anchor payments =
          new com.vaadin.flow.component.html.Anchor(
              SearchView.link(d.ref().key()), Texts.t("keys.payments-link"));
      payments.setId("key-payments-link");
      links.add(payments);
    }
    result.add(links);
    if (d.maskedBody() == null && d.responseStatus() == null) {
      result.add(new Paragraph(Texts.t("keys.no-answer")));
    }
  }

  private static String headers(Map<String, List<String>> headers) {
    if (headers == null || headers.isEmpty()) {
      return Texts.t("keys.headers.none");
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
