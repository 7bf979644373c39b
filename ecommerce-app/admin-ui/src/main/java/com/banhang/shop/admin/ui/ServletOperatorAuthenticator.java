package com.banhang.shop.admin.ui;

import com.banhang.shop.admin.application.LogText;
import com.banhang.shop.admin.security.LoginThrottle;
import com.vaadin.flow.server.VaadinService;
import com.vaadin.flow.server.VaadinServletRequest;
import com.vaadin.flow.server.WrappedHttpSession;
import com.vaadin.flow.server.WrappedSession;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import java.time.Duration;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Authenticates through the Servlet API so the console uses the same user registry and role mapping
 * (server.xml) as the REST API, without a container security constraint on /admin: a constraint
 * would bring the browser's Basic pop-up instead of the login page. Failed logins count in the same
 * {@link LoginThrottle} as the API's, so the form is no way around its limits.
 */
@ApplicationScoped
public class ServletOperatorAuthenticator implements OperatorAuthenticator {

  static final String OPERATOR_ROLE = "operator";
  private static final Logger LOG = Logger.getLogger(ServletOperatorAuthenticator.class.getName());

  @Inject LoginThrottle throttle;

  @Override
  public Login authenticate(String userName, String password) {
    VaadinServletRequest current = VaadinServletRequest.getCurrent();
    return authenticate(
        current.getHttpServletRequest(),
        throttle,
        userName,
        password,
        () -> logoutInANewSession(current));
  }

  /**
   * Checks the credentials and the role, then always ends the container login ({@code
   * endContainerLogin}): the console keeps its own {@link OperatorSession}, no container identity.
   */
  static Login authenticate(
      HttpServletRequest request,
      LoginThrottle throttle,
      String userName,
      String password,
      Runnable endContainerLogin) {
    String address = request.getRemoteAddr();
    Optional<Duration> refused = throttle.refusal(userName, address, LoginThrottle.Channel.CONSOLE);
    if (refused.isPresent()) {
      LOG.log(Level.INFO, "console login of {0} throttled", LogText.of(userName));
      return Login.refused(Verdict.THROTTLED);
    }
    try {
      request.login(userName, password);
    } catch (ServletException e) {
      LOG.log(Level.INFO, "console login refused for {0}", LogText.of(userName));
      throttle.failed(userName, address, LoginThrottle.Channel.CONSOLE);
      return Login.refused(Verdict.INVALID_CREDENTIALS);
    }
    boolean operator;
    String principal;
    try {
      operator = request.isUserInRole(OPERATOR_ROLE);
      principal = request.getUserPrincipal() == null ? null : request.getUserPrincipal().getName();
    } finally {
      endContainerLogin.run();
    }
    if (!operator || principal == null) {
      LOG.log(Level.INFO, "console login of non-operator {0} refused", LogText.of(userName));
      return Login.refused(Verdict.NOT_OPERATOR);
    }
    LOG.log(Level.INFO, "operator {0} logged in to the console", LogText.of(principal));
    return new Login(Verdict.OPERATOR, principal);
  }

  /**
   * Liberty's {@code HttpServletRequest.logout()} also invalidates the HTTP session, and with it
   * the VaadinSession of the very login page that is answering: the page would reload and lose its
   * message. Vaadin's {@link VaadinService#reinitializeSession} moves the VaadinSession to a new
   * HTTP session and invalidates the old one; here that invalidation is the container logout. The
   * new session has a new id, so an id planted before login (session fixation) names nothing.
   */
  private static void logoutInANewSession(VaadinServletRequest current) {
    HttpServletRequest http = current.getHttpServletRequest();
    VaadinServletRequest rotating =
        new VaadinServletRequest(http, current.getService()) {
          private boolean oldSessionHandedOut;

          @Override
          public WrappedSession getWrappedSession() {
            return getWrappedSession(true);
          }

          @Override
          public WrappedSession getWrappedSession(boolean allowSessionCreation) {
            HttpSession session = http.getSession(allowSessionCreation);
            if (session == null) {
              return null;
            }
            if (oldSessionHandedOut) {
              return new WrappedHttpSession(session);
            }
            oldSessionHandedOut = true;
            return new WrappedHttpSession(session) {
              @Override
              public void invalidate() {
                containerLogout(http);
                try {
                  session.invalidate();
                } catch (IllegalStateException alreadyInvalidatedByLogout) {
                  // what Liberty's logout does; nothing left to do
                }
              }
            };
          }
        };
    VaadinService.reinitializeSession(rotating);
  }

  private static void containerLogout(HttpServletRequest request) {
    try {
      request.logout();
    } catch (ServletException e) {
      LOG.log(Level.WARNING, "container logout after the console login failed", e);
    }
  }
}
