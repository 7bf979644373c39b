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
import com.vaadin.flow.router.HasDynamicTitle;
import com.vaadin.flow.router.Route;
import com.vaadin.flow.theme.lumo.LumoUtility;
import jakarta.inject.Inject;

/** The console's own login page: a form, never the browser's Basic pop-up. */
@Route(LoginView.PATH)
public class LoginView extends VerticalLayout implements BeforeEnterObserver, HasDynamicTitle {

  static final String PATH = "login";

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
    form.setI18n(i18n());
    form.addLoginListener(this::login);

    message.setId("login-message");
    message.addClassNames(LumoUtility.TextColor.ERROR);
    message.setVisible(false);

    add(new H1(Texts.t("console.name")), form, message);
  }

  @Override
  public String getPageTitle() {
    return Texts.title("login.title");
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
      showError(Texts.t("login.failed"), Texts.t("login.failed.detail"));
      Notices.error(Texts.t("login.failed.notice", e.getClass().getSimpleName()));
      return;
    }
    switch (login.verdict()) {
      case OPERATOR -> {
        // The name the registry authenticated, not the one typed (the audit records it).
        OperatorSession.set(new OperatorSession(login.principal()));
        UI.getCurrent().navigate(OverviewView.class);
      }
      case NOT_OPERATOR ->
          showError(Texts.t("login.not-operator"), Texts.t("login.not-operator.detail"));
      case THROTTLED -> showError(Texts.t("login.throttled"), Texts.t("login.throttled.detail"));
      case INVALID_CREDENTIALS ->
          showError(Texts.t("login.invalid"), Texts.t("login.invalid.detail"));
    }
  }

  /** The title of the error the form shows now (its i18n has no public getter). */
  String errorTitle() {
    return errorTitle;
  }

  /** The form's own words from the bundle, not the component's built-in English. */
  private static LoginI18n i18n() {
    LoginI18n i18n = LoginI18n.createDefault();
    i18n.getForm().setTitle(Texts.t("login.form.title"));
    i18n.getForm().setUsername(Texts.t("login.form.username"));
    i18n.getForm().setPassword(Texts.t("login.form.password"));
    i18n.getForm().setSubmit(Texts.t("login.form.submit"));
    i18n.getErrorMessage().setTitle(Texts.t("login.invalid"));
    i18n.getErrorMessage().setMessage(Texts.t("login.invalid.detail"));
    i18n.getErrorMessage().setUsername(Texts.t("login.form.username.required"));
    i18n.getErrorMessage().setPassword(Texts.t("login.form.password.required"));
    return i18n;
  }

  private void showError(String title, String detail) {
    LoginI18n i18n = i18n();
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
