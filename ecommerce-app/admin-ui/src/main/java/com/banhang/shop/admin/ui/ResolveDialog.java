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

  static final String REASON_TOO_SHORT =
      "Say what you checked and where, in at least " + MIN_REASON_LENGTH + " characters.";
  static final String TICKET_REQUIRED =
      "A ticket reference is required: it is written to the audit.";

  static final String REASON_REQUIRED = "A reason is required: it is written to the audit.";
  static final String CHARGE_REQUIRED = "The gateway charge id is required.";

  final TextField chargeId = new TextField("Gateway charge id");
  final TextArea reason = new TextArea("Reason");
  final TextField ticket = new TextField("Ticket reference");

  ResolveDialog(String title, boolean askChargeId, Restatement restated, Action action) {
    this(
        askChargeId ? "resolve-charged-dialog" : "resolve-not-charged-dialog",
        title,
        restated == null ? null : facts(restated),
        askChargeId
            ? "The key is settled with the stored result of this charge, once the gateway"
                + " confirms its amount, currency and order."
            : "The attempt is abandoned, the key released and the order payable again.",
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
    reason.setHelperText(
        "What you checked and where (at least " + MIN_REASON_LENGTH + " characters)");
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
            "Confirm",
            e -> {
              if (valid(askChargeId) && action.run(chargeId.getValue().trim(), reasonText())) {
                close();
              }
            });
    confirm.setId("confirm-button");
    confirm.addThemeVariants(ButtonVariant.LUMO_PRIMARY);
    Button cancel = new Button("Cancel", e -> close());
    cancel.setId("cancel-button");
    getFooter().add(cancel, confirm);
  }

  /** What a key's resolution restates. */
  private static java.util.List<Fact> facts(Restatement restated) {
    return java.util.List.of(
        new Fact("Customer", restated.customer()),
        new Fact("Order", restated.order()),
        new Fact("Amount", restated.amount()),
        new Fact("Gateway said last", restated.gatewaySaid()));
  }

  /** The reason as the audit keeps it: the operator's words and the ticket. */
  private String reasonText() {
    return reason.getValue().trim() + " [ticket " + ticket.getValue().trim() + "]";
  }

  private boolean valid(boolean askChargeId) {
    boolean ok = true;
    if (reason.getValue() == null || reason.getValue().isBlank()) {
      reason.setErrorMessage(REASON_REQUIRED);
      reason.setInvalid(true);
      Notices.error(REASON_REQUIRED);
      ok = false;
    } else if (reason.getValue().trim().length() < MIN_REASON_LENGTH) {
      reason.setErrorMessage(REASON_TOO_SHORT);
      reason.setInvalid(true);
      Notices.error(REASON_TOO_SHORT);
      ok = false;
    } else {
      reason.setInvalid(false);
    }
    if (ticket.getValue() == null || ticket.getValue().isBlank()) {
      ticket.setErrorMessage(TICKET_REQUIRED);
      ticket.setInvalid(true);
      Notices.error(TICKET_REQUIRED);
      ok = false;
    } else {
      ticket.setInvalid(false);
    }
    if (askChargeId && (chargeId.getValue() == null || chargeId.getValue().isBlank())) {
      chargeId.setErrorMessage(CHARGE_REQUIRED);
      chargeId.setInvalid(true);
      Notices.error(CHARGE_REQUIRED);
      ok = false;
    } else {
      chargeId.setInvalid(false);
    }
    return ok;
  }
}
