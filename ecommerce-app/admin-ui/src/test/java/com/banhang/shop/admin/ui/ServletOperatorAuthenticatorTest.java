package com.banhang.shop.admin.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import com.banhang.shop.admin.security.LoginThrottle;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.mockito.InOrder;

class ServletOperatorAuthenticatorTest {

  private final HttpServletRequest request = mock(HttpServletRequest.class);
  private final Runnable endContainerLogin = mock(Runnable.class);
  private final LoginThrottle throttle = mock(LoginThrottle.class);

  {
    when(request.getRemoteAddr()).thenReturn("192.0.2.7");
    when(throttle.refusal(anyString(), anyString(), any())).thenReturn(Optional.empty());
  }

  @Test
  void anOperatorIsCheckedAndTheContainerLoginEndedAfterwards() throws Exception {
    when(request.isUserInRole("operator")).thenReturn(true);
    when(request.getUserPrincipal()).thenReturn(() -> "operator");

    assertThat(
            ServletOperatorAuthenticator.authenticate(
                request, throttle, "operator", "operator-secret", endContainerLogin))
        .extracting(OperatorAuthenticator.Login::verdict)
        .isEqualTo(OperatorAuthenticator.Verdict.OPERATOR);

    InOrder order = inOrder(request, endContainerLogin);
    order.verify(request).login("operator", "operator-secret");
    order.verify(request).isUserInRole("operator");
    order.verify(endContainerLogin).run();
  }

  @Test
  void theOperatorIsTheAuthenticatedPrincipal_notTheNameAsTyped() throws Exception {
    when(request.isUserInRole("operator")).thenReturn(true);
    // A registry that matches names case-insensitively: what was typed is not who logged in.
    when(request.getUserPrincipal()).thenReturn(() -> "operator");

    OperatorAuthenticator.Login login =
        ServletOperatorAuthenticator.authenticate(
            request, throttle, "OPERATOR\r\nforged", "operator-secret", endContainerLogin);

    assertThat(login.verdict()).isEqualTo(OperatorAuthenticator.Verdict.OPERATOR);
    assertThat(login.principal()).isEqualTo("operator");
  }

  @Test
  void aCustomerIsRefusedAndLoggedOutAgain() {
    when(request.isUserInRole("operator")).thenReturn(false);

    assertThat(
            ServletOperatorAuthenticator.authenticate(
                request, throttle, "alice", "alice-secret", endContainerLogin))
        .extracting(OperatorAuthenticator.Login::verdict)
        .isEqualTo(OperatorAuthenticator.Verdict.NOT_OPERATOR);

    verify(endContainerLogin).run();
  }

  @Test
  void wrongCredentialsAreRefusedWithNothingToEnd() throws Exception {
    doThrow(new ServletException("bad")).when(request).login("operator", "nope");

    assertThat(
            ServletOperatorAuthenticator.authenticate(
                request, throttle, "operator", "nope", endContainerLogin))
        .extracting(OperatorAuthenticator.Login::verdict)
        .isEqualTo(OperatorAuthenticator.Verdict.INVALID_CREDENTIALS);

    verify(request, never()).isUserInRole("operator");
    verify(endContainerLogin, never()).run();
    verify(throttle).failed("operator", "192.0.2.7", LoginThrottle.Channel.CONSOLE);
  }

  @Test
  void aThrottledLoginIsRefusedWithoutCheckingThePassword() throws Exception {
    when(throttle.refusal("operator", "192.0.2.7", LoginThrottle.Channel.CONSOLE))
        .thenReturn(Optional.of(Duration.ofSeconds(30)));

    assertThat(
            ServletOperatorAuthenticator.authenticate(
                request, throttle, "operator", "operator-secret", endContainerLogin))
        .extracting(OperatorAuthenticator.Login::verdict)
        .isEqualTo(OperatorAuthenticator.Verdict.THROTTLED);

    verify(request, never()).login(anyString(), anyString());
    verify(throttle, never()).failed(anyString(), anyString(), any());
  }

  @Test
  void aSuccessfulLoginCostsNothing() {
    when(request.isUserInRole("operator")).thenReturn(true);

    ServletOperatorAuthenticator.authenticate(
        request, throttle, "operator", "operator-secret", endContainerLogin);

    verify(throttle, never()).failed(anyString(), anyString(), any());
  }
}
