package com.banhang.shop.admin.ui;

import com.vaadin.flow.component.UI;
import com.vaadin.flow.component.html.H1;
import com.vaadin.flow.component.html.Paragraph;
import com.vaadin.flow.component.login.AbstractLogin;
import com.vaadin.flow.component.login.LoginForm;
import com.vaadin.flow.component.login.LoginI18n;
import com.vaadin.flow.component.orderedlayout.FlexComponent;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.router.BeforeEnterEvent;
import com.vaadin.flow.router.BeforeEnterObserver;
import com.vaadin.flow.router.PageTitle;
import com.vaadin.flow.router.Route;
import com.vaadin.flow.theme.lumo.LumoUtility;
import jakarta.inject.Inject;

/** The console's own login page: a form, never the browser's Basic pop-up. */
@Route(LoginView.PATH)
@PageTitle("Log in | BanHang operator console")
public class LoginView extends VerticalLayout implements BeforeEnterObserver {

  static final String PATH = "login";
  static final String NOT_OPERATOR = "Not allowed: operators only";
  static final String THROTTLED = "Too many failed logins";

  private final OperatorAuthenticator authenticator;
  private final LoginForm form = new LoginForm();
  private final Paragraph message = new Paragraph();
  private String errorTitle;

  @Inject
  public LoginView(OperatorAuthenticator authenticator) {
    this.authenticator = authenticator;
    setSizeFull();
    setAlignItems(FlexComponent.Alignment.CENTER);
    setJustifyContentMode(FlexComponent.JustifyContentMode.CENTER);

    form.setId("login-form");
    form.setForgotPasswordButtonVisible(false);
    form.addLoginListener(this::login);

    message.setId("login-message");
    message.addClassNames(LumoUtility.TextColor.ERROR);
    message.setVisible(false);

    add(new H1("BanHang operator console"), form, message);
  }

  @Override
  public void beforeEnter(BeforeEnterEvent event) {
    if (OperatorSession.current().isPresent()) {
      event.forwardTo(OverviewView.class);
    }
  }

  private void login(AbstractLogin.LoginEvent event) {
    OperatorAuthenticator.Login login;
    try {
      login = authenticator.authenticate(event.getUsername(), event.getPassword());
    } catch (RuntimeException e) {
      showError("Login failed", "The user registry could not be asked; try again.");
      Notices.error("Login failed: " + e.getClass().getSimpleName());
      return;
    }
    switch (login.verdict()) {
      case OPERATOR -> {
        // The name the registry authenticated, not the one typed (the audit records it).
        OperatorSession.set(new OperatorSession(login.principal()));
        UI.getCurrent().navigate(OverviewView.class);
      }
      case NOT_OPERATOR ->
          showError(NOT_OPERATOR, "This console is for operators; customers use the shop.");
      case THROTTLED ->
          showError(
              THROTTLED,
              "Logins of this user or from this address are paused after repeated failures;"
                  + " try again in a few minutes.");
      case INVALID_CREDENTIALS ->
          showError(
              "Incorrect username or password",
              "Check that you have entered the correct username and password and try again.");
    }
  }

  /** The title of the error the form shows now (its i18n has no public getter). */
  String errorTitle() {
    return errorTitle;
  }

  private void showError(String title, String detail) {
    LoginI18n i18n = LoginI18n.createDefault();
    i18n.getErrorMessage().setTitle(title);
    i18n.getErrorMessage().setMessage(detail);
    form.setI18n(i18n);
    errorTitle = title;
    form.setError(true);
    form.setEnabled(true);
    message.setText(title);
    message.setVisible(true);
  }
}
