package com.banhang.shop.admin.ui;

import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.html.Paragraph;

/**
 * The second, explicit confirmation when the gateway no longer knows the charge: settling anyway is
 * an override, recorded as such in the audit.
 */
class OverrideDialog extends com.vaadin.flow.component.confirmdialog.ConfirmDialog {

  OverrideDialog(String serviceMessage, Runnable override) {
    setId("override-dialog");
    setHeader(Texts.t("override.header"));
    Paragraph question = new Paragraph(Texts.t("override.question"));
    question.setId("override-question");
    add(question);
    if (serviceMessage != null && !serviceMessage.isBlank()) {
      add(new Paragraph(serviceMessage));
    }
    Button yes =
        new Button(
            Texts.t("override.confirm"),
            e -> {
              close();
              override.run();
            });
    yes.setId("override-button");
    yes.addThemeVariants(ButtonVariant.LUMO_ERROR, ButtonVariant.LUMO_PRIMARY);
    Button no = new Button(Texts.t("dialog.cancel"), e -> close());
    no.setId("override-cancel-button");
    setConfirmButton(yes);
    setCancelable(true);
    setCancelButton(no);
  }
}
