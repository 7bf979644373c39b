package com.banhang.shop.web.problems;

import com.banhang.idempotency.ProblemDetails;
import com.banhang.shop.admin.security.LoginThrottle;
import com.banhang.shop.web.security.LoginRefusals;
import jakarta.inject.Inject;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Errors the container answers before the application runs (401 without credentials, 403 without
 * the role, unknown paths) become problem documents instead of the server's HTML pages.
 *
 * <p>The container's 401 is where a failed Basic login shows (the container checks the password
 * before any filter): it is counted in the shop's {@link LoginThrottle}, and while the user or the
 * address is throttled it becomes 429 with {@code Retry-After}. While {@code shop.http.require-tls}
 * is true, a 401 to a request over plain HTTP becomes 403 {@code https-required} without the Basic
 * challenge, so that no client is asked for its password over plain HTTP.
 */
@WebServlet("/problem")
public class ErrorPageServlet extends HttpServlet {

  private static final long serialVersionUID = 1L;

  @Inject transient LoginThrottle throttle;

  @Inject
  @ConfigProperty(name = "shop.http.require-tls", defaultValue = "true")
  boolean requireTls;

  @Override
  protected void service(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
    int status = code instanceof Integer i ? i : HttpServletResponse.SC_NOT_FOUND;
    if (status == HttpServletResponse.SC_UNAUTHORIZED && refusedLogin(request, response)) {
      return;
    }
    ProblemDetails problem = ProblemExceptionMapper.httpProblem(status);
    response.setStatus(status);
    response.setContentType(ProblemDetails.MEDIA_TYPE);
    response.setCharacterEncoding("UTF-8");
    response.getOutputStream().write(problem.toJson());
  }

  /** True when the 401 was answered otherwise: plain HTTP, or a throttled login. */
  private boolean refusedLogin(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    if (requireTls && !request.isSecure()) {
      LoginRefusals.httpsRequired(response);
      return true;
    }
    Optional<String> user = LoginRefusals.basicUserName(request.getHeader("Authorization"));
    if (user.isEmpty()) {
      return false;
    }
    String address = request.getRemoteAddr();
    Optional<Duration> refused = throttle.refusal(user.get(), address, LoginThrottle.Channel.API);
    if (refused.isPresent()) {
      LoginRefusals.tooManyFailedLogins(response, refused.get());
      return true;
    }
    throttle.failed(user.get(), address, LoginThrottle.Channel.API);
    return false;
  }
}
