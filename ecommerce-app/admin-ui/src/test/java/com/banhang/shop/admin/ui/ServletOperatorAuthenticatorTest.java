package com.banhang.shop.admin.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import org.junit.jupiter.api.Test;
import org.mockito.InOrder;

class ServletOperatorAuthenticatorTest {

  private final HttpServletRequest request = mock(HttpServletRequest.class);
  private final Runnable endContainerLogin = mock(Runnable.class);

  @Test
  void anOperatorIsCheckedAndTheContainerLoginEndedAfterwards() throws Exception {
    when(request.isUserInRole("operator")).thenReturn(true);

    assertThat(
            ServletOperatorAuthenticator.authenticate(
                request, "operator", "operator-secret", endContainerLogin))
        .isEqualTo(OperatorAuthenticator.Outcome.OPERATOR);

    InOrder order = inOrder(request, endContainerLogin);
    order.verify(request).login("operator", "operator-secret");
    order.verify(request).isUserInRole("operator");
    order.verify(endContainerLogin).run();
  }

  @Test
  void aCustomerIsRefusedAndLoggedOutAgain() {
    when(request.isUserInRole("operator")).thenReturn(false);

    assertThat(
            ServletOperatorAuthenticator.authenticate(
                request, "alice", "alice-secret", endContainerLogin))
        .isEqualTo(OperatorAuthenticator.Outcome.NOT_OPERATOR);

    verify(endContainerLogin).run();
  }

  @Test
  void wrongCredentialsAreRefusedWithNothingToEnd() throws Exception {
    doThrow(new ServletException("bad")).when(request).login("operator", "nope");

    assertThat(
            ServletOperatorAuthenticator.authenticate(
                request, "operator", "nope", endContainerLogin))
        .isEqualTo(OperatorAuthenticator.Outcome.INVALID_CREDENTIALS);

    verify(request, never()).isUserInRole("operator");
    verify(endContainerLogin, never()).run();
  }
}
