package com.banhang.shop.web.deployment;

import com.banhang.idempotency.ProblemDetails;
import jakarta.inject.Inject;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Refuses every request that did not arrive over TLS while {@code shop.http.require-tls} is true
 * (the production default). Production opens no plain-HTTP port; this catches one opened by mistake
 * and a proxy that terminates TLS without telling the server (Liberty's {@code remoteIp} makes a
 * forwarded {@code X-Forwarded-Proto: https} count as secure, docs/deployment.md).
 */
@WebFilter(urlPatterns = "/*", asyncSupported = true)
public class RequireTlsFilter extends HttpFilter {

  private static final long serialVersionUID = 1L;

  @Inject
  @ConfigProperty(name = "shop.http.require-tls", defaultValue = "true")
  boolean requireTls;

  @Override
  protected void doFilter(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    if (!requireTls || request.isSecure()) {
      chain.doFilter(request, response);
      return;
    }
    ProblemDetails problem =
        new ProblemDetails(
            403,
            "https-required",
            "HTTPS required",
            "this server answers only over TLS; send the request to its https:// address");
    response.setStatus(403);
    response.setContentType(ProblemDetails.MEDIA_TYPE);
    response.setCharacterEncoding("UTF-8");
    response.getOutputStream().write(problem.toJson());
  }
}
