package com.banhang.shop.admin.ui;

import static com.github.mvysny.kaributesting.v10.LocatorJ._click;
import static com.github.mvysny.kaributesting.v10.LocatorJ._get;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import com.github.mvysny.kaributesting.v10.LoginFormKt;
import com.vaadin.flow.component.UI;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.html.Paragraph;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.login.LoginForm;
import org.junit.jupiter.api.Test;

class LoginAndLayoutTest extends ConsoleTestBase {

  @Test
  void anAnonymousVisitorOfAnyViewIsSentToTheLoginPage() {
    for (Class<? extends com.vaadin.flow.component.Component> view :
        java.util.List.of(
            OverviewView.class,
            StuckOperationsView.class,
            KeyLookupView.class,
            RetentionView.class,
            AuditView.class)) {
      UI.getCurrent().navigate(view);
      assertThat(UI.getCurrent().getCurrentView())
          .as(view.getSimpleName())
          .isInstanceOf(LoginView.class);
    }
    // The views' data were never read for an anonymous visitor.
    verifyNoInteractions(stuck, overview, keyLookup, retention, audit, actions);
  }

  @Test
  void anOperatorLogsInAndLandsOnTheOverview() {
    when(authenticator.authenticate("operator", "operator-secret"))
        .thenReturn(
            new OperatorAuthenticator.Login(OperatorAuthenticator.Verdict.OPERATOR, "operator"));
    navigate(LoginView.class);

    LoginFormKt._login(
        _get(LoginForm.class, s -> s.withId("login-form")), "operator", "operator-secret");

    assertThat(OperatorSession.current()).contains(new OperatorSession("operator"));
    assertThat(UI.getCurrent().getCurrentView()).isInstanceOf(OverviewView.class);
    assertThat(_get(Span.class, s -> s.withId("operator-name")).getText()).isEqualTo("operator");
    verify(overview).snapshot();
  }

  @Test
  void aCustomerIsRefusedAndStaysOut() {
    when(authenticator.authenticate("alice", "alice-secret"))
        .thenReturn(
            OperatorAuthenticator.Login.refused(OperatorAuthenticator.Verdict.NOT_OPERATOR));
    navigate(LoginView.class);
    LoginForm form = _get(LoginForm.class, s -> s.withId("login-form"));

    LoginFormKt._login(form, "alice", "alice-secret");

    assertThat(OperatorSession.current()).isEmpty();
    assertThat(UI.getCurrent().getCurrentView()).isInstanceOf(LoginView.class);
    assertThat(_get(Paragraph.class, s -> s.withId("login-message")).getText())
        .isEqualToIgnoringCase("not allowed: operators only");
    assertThat(form.isError()).isTrue();
    assertThat(((LoginView) UI.getCurrent().getCurrentView()).errorTitle())
        .contains("operators only");

    UI.getCurrent().navigate(StuckOperationsView.class);
    assertThat(UI.getCurrent().getCurrentView()).isInstanceOf(LoginView.class);
  }

  @Test
  void aWrongPasswordShowsTheLoginFormError() {
    when(authenticator.authenticate(any(), any()))
        .thenReturn(
            OperatorAuthenticator.Login.refused(OperatorAuthenticator.Verdict.INVALID_CREDENTIALS));
    navigate(LoginView.class);
    LoginForm form = _get(LoginForm.class, s -> s.withId("login-form"));

    LoginFormKt._login(form, "operator", "wrong");

    assertThat(form.isError()).isTrue();
    assertThat(((LoginView) UI.getCurrent().getCurrentView()).errorTitle())
        .isEqualTo("Incorrect username or password");
    assertThat(OperatorSession.current()).isEmpty();
    assertThat(UI.getCurrent().getCurrentView()).isInstanceOf(LoginView.class);
  }

  @Test
  void aThrottledLoginSaysSoAndStaysOut() {
    when(authenticator.authenticate(any(), any()))
        .thenReturn(OperatorAuthenticator.Login.refused(OperatorAuthenticator.Verdict.THROTTLED));
    navigate(LoginView.class);
    LoginForm form = _get(LoginForm.class, s -> s.withId("login-form"));

    LoginFormKt._login(form, "operator", "operator-secret");

    assertThat(form.isError()).isTrue();
    assertThat(((LoginView) UI.getCurrent().getCurrentView()).errorTitle())
        .isEqualTo("Too many failed logins");
    assertThat(OperatorSession.current()).isEmpty();
  }

  @Test
  void aFailingUserRegistryIsAnErrorNotTheConsole() {
    when(authenticator.authenticate(any(), any())).thenThrow(new IllegalStateException("down"));
    navigate(LoginView.class);

    LoginFormKt._login(_get(LoginForm.class), "operator", "operator-secret");

    assertThat(OperatorSession.current()).isEmpty();
    assertThat(notificationTexts()).anyMatch(t -> t.startsWith("Login failed"));
  }

  @Test
  void aLoggedInOperatorSeesNameAndNavigationAndIsNotShownTheLoginPageAgain() {
    loginAs("operator");
    navigate(RetentionView.class);
    assertThat(_get(Span.class, s -> s.withId("operator-name")).getText()).isEqualTo("operator");

    UI.getCurrent().navigate(LoginView.class);
    assertThat(UI.getCurrent().getCurrentView()).isInstanceOf(OverviewView.class);
  }

  @Test
  void logoutEndsTheSessionAndTheViewsAreClosedAgain() {
    loginAs("operator");
    navigate(AuditView.class);

    _click(_get(Button.class, s -> s.withId("logout-button")));

    assertThat(OperatorSession.current()).isEmpty();
    UI.getCurrent().navigate(AuditView.class);
    assertThat(UI.getCurrent().getCurrentView()).isInstanceOf(LoginView.class);
  }
}
