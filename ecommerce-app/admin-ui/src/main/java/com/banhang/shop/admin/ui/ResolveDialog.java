package com.banhang.shop.admin.ui;

import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.dialog.Dialog;
import com.vaadin.flow.component.html.Paragraph;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.component.textfield.TextArea;
import com.vaadin.flow.component.textfield.TextField;

/**
 * Asks for what settling a key needs: always a reason (it goes to the audit), and for "charged" the
 * gateway charge id. Empty fields are refused here, before any service call.
 */
class ResolveDialog extends Dialog {

  /** Runs the action; answers whether the dialog may close (false keeps it open to retry). */
  interface Action {
    boolean run(String chargeId, String reason);
  }

  static final String REASON_REQUIRED = "A reason is required: it is written to the audit.";
  static final String CHARGE_REQUIRED = "The gateway charge id is required.";

  final TextField chargeId = new TextField("Gateway charge id");
  final TextArea reason = new TextArea("Reason");

  ResolveDialog(String title, boolean askChargeId, Action action) {
    setHeaderTitle(title);
    setId(askChargeId ? "resolve-charged-dialog" : "resolve-not-charged-dialog");
    chargeId.setId("charge-id-field");
    chargeId.setWidthFull();
    reason.setId("reason-field");
    reason.setWidthFull();
    reason.setMinHeight("6em");

    VerticalLayout body = new VerticalLayout();
    body.setPadding(false);
    body.add(
        new Paragraph(
            askChargeId
                ? "The key is settled with the stored result of this charge, once the gateway"
                    + " confirms its amount, currency and order."
                : "The attempt is abandoned, the key released and the order payable again."));
    if (askChargeId) {
      body.add(chargeId);
    }
    body.add(reason);
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

  private String reasonText() {
    return reason.getValue().trim();
  }

  private boolean valid(boolean askChargeId) {
    boolean ok = true;
    if (reason.getValue() == null || reason.getValue().isBlank()) {
      reason.setErrorMessage(REASON_REQUIRED);
      reason.setInvalid(true);
      Notices.error(REASON_REQUIRED);
      ok = false;
    } else {
      reason.setInvalid(false);
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
