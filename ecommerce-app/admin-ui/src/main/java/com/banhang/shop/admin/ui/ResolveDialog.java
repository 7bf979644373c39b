package com.banhang.shop.admin.ui;

import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.dialog.Dialog;
import com.vaadin.flow.component.html.Paragraph;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.component.textfield.TextArea;
import com.vaadin.flow.component.textfield.TextField;

/**
 * Asks for what settling a key needs, after restating what is being settled (customer, order,
 * amount, what the gateway said last) so that the operator on the phone can read it back: always a
 * reason of real length and a ticket reference (both go to the audit), and for "charged" the
 * gateway charge id. Anything missing is refused here, before any service call.
 */
class ResolveDialog extends Dialog {

  /** Runs the action; answers whether the dialog may close (false keeps it open to retry). */
  interface Action {
    boolean run(String chargeId, String reason);
  }

  /**
   * What the dialog restates; any part may be null when unknown.
   *
   * @param customer the tenant
   * @param order the order id
   * @param amount the amount, already written for people
   * @param gatewaySaid the gateway's last answer about the key
   */
  record Restatement(String customer, String order, String amount, String gatewaySaid) {}

  /** Shorter than this is not a reason a colleague can act on ("ok", "done", "see ticket"). */
  static final int MIN_REASON_LENGTH = 20;

  final TextField chargeId = new TextField(Texts.t("resolve.charge-id"));
  final TextArea reason = new TextArea(Texts.t("resolve.reason"));
  final TextField ticket = new TextField(Texts.t("resolve.ticket"));

  ResolveDialog(String title, boolean askChargeId, Restatement restated, Action action) {
    this(
        askChargeId ? "resolve-charged-dialog" : "resolve-not-charged-dialog",
        title,
        restated == null ? null : facts(restated),
        Texts.t(askChargeId ? "resolve.charged.explanation" : "resolve.not-charged.explanation"),
        askChargeId,
        action);
  }

  /** One line the dialog restates: a label and its value (null when unknown). */
  record Fact(String label, String value) {}

  /**
   * The same questions about something other than a key (a late charge): what is restated, and what
   * the action will do, are the caller's.
   *
   * @param id the dialog's id
   * @param facts what the dialog restates, in order; null restates nothing
   * @param explanation what confirming does, in words
   */
  ResolveDialog(
      String id,
      String title,
      java.util.List<Fact> facts,
      String explanation,
      boolean askChargeId,
      Action action) {
    setHeaderTitle(title);
    setId(id);
    chargeId.setId("charge-id-field");
    chargeId.setWidthFull();
    reason.setId("reason-field");
    reason.setWidthFull();
    reason.setMinHeight("6em");
    reason.setHelperText(Texts.t("resolve.reason.helper", MIN_REASON_LENGTH));
    ticket.setId("ticket-field");
    ticket.setMaxLength(64);
    ticket.setWidthFull();

    VerticalLayout body = new VerticalLayout();
    body.setPadding(false);
    if (facts != null) {
      com.vaadin.flow.component.formlayout.FormLayout restatement =
          new com.vaadin.flow.component.formlayout.FormLayout();
      restatement.setId("resolve-restatement");
      restatement.setResponsiveSteps(
          new com.vaadin.flow.component.formlayout.FormLayout.ResponsiveStep("0", 2));
      for (Fact fact : facts) {
        restatement.addFormItem(Formats.value(fact.value()), fact.label());
      }
      body.add(restatement);
    }
    body.add(new Paragraph(explanation));
    if (askChargeId) {
      body.add(chargeId);
    }
    body.add(reason, ticket);
    add(body);
    setWidth("32em");

    Button confirm =
        new Button(
            Texts.t("dialog.confirm"),
            e -> {
              if (valid(askChargeId) && action.run(chargeId.getValue().trim(), reasonText())) {
                close();
              }
            });
    confirm.setId("confirm-button");
    confirm.addThemeVariants(ButtonVariant.LUMO_PRIMARY);
    Button cancel = new Button(Texts.t("dialog.cancel"), e -> close());
    cancel.setId("cancel-button");
    getFooter().add(cancel, confirm);
  }

  /** What a key's resolution restates. */
  private static java.util.List<Fact> facts(Restatement restated) {
    return java.util.List.of(
        new Fact(Texts.t("resolve.fact.customer"), restated.customer()),
        new Fact(Texts.t("resolve.fact.order"), restated.order()),
        new Fact(Texts.t("resolve.fact.amount"), restated.amount()),
        new Fact(Texts.t("resolve.fact.gateway-said"), restated.gatewaySaid()));
  }

  /** The reason as the audit keeps it: the operator's words and the ticket. */
  private String reasonText() {
    return reason.getValue().trim() + " [ticket " + ticket.getValue().trim() + "]";
  }

  private boolean valid(boolean askChargeId) {
    boolean ok = true;
    if (reason.getValue() == null || reason.getValue().isBlank()) {
      refuse(reason, Texts.t("resolve.reason.required"));
      ok = false;
    } else if (reason.getValue().trim().length() < MIN_REASON_LENGTH) {
      refuse(reason, Texts.t("resolve.reason.too-short", MIN_REASON_LENGTH));
      ok = false;
    } else {
      reason.setInvalid(false);
    }
    if (ticket.getValue() == null || ticket.getValue().isBlank()) {
      refuse(ticket, Texts.t("resolve.ticket.required"));
      ok = false;
    } else {
      ticket.setInvalid(false);
    }
    if (askChargeId && (chargeId.getValue() == null || chargeId.getValue().isBlank())) {
      refuse(chargeId, Texts.t("resolve.charge-id.required"));
      ok = false;
    } else {
      chargeId.setInvalid(false);
    }
    return ok;
  }

  /** Marks {@code field} with {@code text} and says it in a notification too. */
  private static void refuse(
      com.vaadin.flow.component.textfield.TextFieldBase<?, String> field, String text) {
    field.setErrorMessage(text);
    field.setInvalid(true);
    Notices.error(text);
  }
}
