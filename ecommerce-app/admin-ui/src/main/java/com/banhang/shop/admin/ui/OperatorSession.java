package com.banhang.shop.admin.ui;

import com.vaadin.flow.server.VaadinSession;
import java.io.Serializable;
import java.util.Objects;
import java.util.Optional;

/**
 * The operator logged in to this Vaadin session. The console keeps its own login state instead of a
 * container identity: the login page authenticates once against the user registry, then logs the
 * container out so that no identity lingers on the HTTP session for other servlets.
 */
public record OperatorSession(String userName) implements Serializable {

  public OperatorSession {
    Objects.requireNonNull(userName, "userName");
  }

  public static Optional<OperatorSession> current() {
    VaadinSession session = VaadinSession.getCurrent();
    return session == null
        ? Optional.empty()
        : Optional.ofNullable(session.getAttribute(OperatorSession.class));
  }

  /** The operator name for service calls; views behind {@link MainLayout} always have one. */
  public static String currentName() {
    return current()
        .map(OperatorSession::userName)
        .orElseThrow(() -> new IllegalStateException("no operator logged in"));
  }

  public static void set(OperatorSession operator) {
    VaadinSession.getCurrent().setAttribute(OperatorSession.class, operator);
  }

  public static void clear() {
    VaadinSession.getCurrent().setAttribute(OperatorSession.class, null);
  }
}
