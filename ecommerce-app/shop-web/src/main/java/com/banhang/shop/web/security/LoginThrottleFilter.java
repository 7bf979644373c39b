package com.banhang.shop.web.security;

import com.banhang.shop.admin.security.LoginThrottle;
import jakarta.inject.Inject;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;

/**
 * Refuses, with 429 and {@code Retry-After}, a request with Basic credentials of a user or from an
 * address that the shop's {@link LoginThrottle} blocks, even when the container accepted the
 * password: otherwise a guesser would learn the right one by the answer. (A wrong password never
 * gets here: the container answers it, through the error page, ErrorPageServlet.) A successful
 * login costs the throttle nothing.
 */
@WebFilter(urlPatterns = "/*", asyncSupported = true)
public class LoginThrottleFilter extends HttpFilter {

  private static final long serialVersionUID = 1L;

  @Inject transient LoginThrottle throttle;

  @Override
  protected void doFilter(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    Optional<String> user = LoginRefusals.basicUserName(request.getHeader("Authorization"));
    if (user.isPresent()) {
      Optional<Duration> refused =
          throttle.refusal(user.get(), request.getRemoteAddr(), LoginThrottle.Channel.API);
      if (refused.isPresent()) {
        LoginRefusals.tooManyFailedLogins(response, refused.get());
        return;
      }
    }
    chain.doFilter(request, response);
  }
}
