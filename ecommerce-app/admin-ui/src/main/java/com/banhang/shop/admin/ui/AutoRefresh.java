package com.banhang.shop.admin.ui;

import com.vaadin.flow.component.UI;
import com.vaadin.flow.component.checkbox.Checkbox;
import com.vaadin.flow.shared.Registration;

/**
 * The switch, on by default, that re-reads a view every {@value #INTERVAL_SECONDS} s while it is
 * shown, so that a screen left open at night shows the night as it is; off stops the polling. It
 * polls (one small request per interval) rather than pushing: push would keep a connection per
 * console open on every node for views that change a few times a minute at most.
 */
final class AutoRefresh extends Checkbox {

  static final int INTERVAL_SECONDS = 15;

  private Registration poll;

  AutoRefresh(String id, Runnable refresh) {
    super(Texts.t("auto-refresh.label", INTERVAL_SECONDS), true);
    setId(id);
    addAttachListener(
        e -> {
          UI ui = e.getUI();
          poll =
              ui.addPollListener(
                  p -> {
                    if (Boolean.TRUE.equals(getValue())) {
                      refresh.run();
                    }
                  });
          ui.setPollInterval(Boolean.TRUE.equals(getValue()) ? INTERVAL_SECONDS * 1000 : -1);
        });
    addDetachListener(
        e -> {
          if (poll != null) {
            poll.remove();
            poll = null;
          }
          e.getUI().setPollInterval(-1);
        });
    addValueChangeListener(
        e ->
            getUI()
                .ifPresent(
                    ui ->
                        ui.setPollInterval(
                            Boolean.TRUE.equals(e.getValue()) ? INTERVAL_SECONDS * 1000 : -1)));
  }
}
