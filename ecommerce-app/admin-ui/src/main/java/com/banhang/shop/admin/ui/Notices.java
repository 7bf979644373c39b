package com.banhang.shop.admin.ui;

import com.banhang.shop.admin.application.ActionResult;
import com.vaadin.flow.component.notification.Notification;
import com.vaadin.flow.component.notification.NotificationVariant;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Shows what happened at once. Every service call of a view goes through {@link #call}: a failing
 * service (a database down, a method not implemented yet) becomes an error notification and the
 * view still renders.
 */
final class Notices {

  private static final Logger LOG = Logger.getLogger(Notices.class.getName());
  private static final int DURATION_MS = 6000;

  private Notices() {}

  static Notification result(ActionResult result) {
    // The status and the service's own message (data, as the audit has it); only the frame is text.
    String text = Texts.t("notice.result", result.status(), result.message());
    NotificationVariant variant =
        switch (result.status()) {
          case DONE -> NotificationVariant.LUMO_SUCCESS;
          case CONFIRMATION_NEEDED, PROPOSED -> NotificationVariant.LUMO_CONTRAST;
          case REFUSED, FAILED -> NotificationVariant.LUMO_ERROR;
        };
    return show(text, variant);
  }

  static Notification error(String text) {
    return show(text, NotificationVariant.LUMO_ERROR);
  }

  static Notification info(String text) {
    return show(text, NotificationVariant.LUMO_PRIMARY);
  }

  /**
   * Runs {@code call}; on failure shows "{@code what} failed: ..." and answers empty. {@code what}
   * is already a text of the bundle; the log keeps it as the operator saw it.
   */
  static <T> Optional<T> call(String what, Supplier<T> call) {
    try {
      return Optional.ofNullable(call.get());
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, what + " failed", e);
      error(Texts.t("notice.failed", what, describe(e)));
      return Optional.empty();
    }
  }

  /**
   * Runs an operator's action as {@link #call} does, shows its result at once, then runs {@code
   * reread} (the view re-reads what the action may have changed), whatever the outcome.
   */
  static Optional<ActionResult> act(String what, Supplier<ActionResult> action, Runnable reread) {
    Optional<ActionResult> result = call(what, action);
    result.ifPresent(Notices::result);
    reread.run();
    return result;
  }

  private static String describe(RuntimeException e) {
    String message = e.getMessage();
    return e.getClass().getSimpleName() + (message == null ? "" : " (" + message + ")");
  }

  private static Notification show(String text, NotificationVariant variant) {
    Notification notification = new Notification(text, DURATION_MS, Notification.Position.TOP_END);
    notification.addThemeVariants(variant);
    notification.open();
    return notification;
  }
}
