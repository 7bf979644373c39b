package com.banhang.shop.admin.rest;

import com.banhang.idempotency.ProblemDetails;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Locale;
import java.util.Set;

/**
 * Cross-site request forgery guard of the operator API (docs/operations.md, "Calling the operator
 * API"). A page on another site can make an operator's browser send a request with the operator's
 * cached Basic credentials, but only a "simple" one: a form POST, or a bodiless {@code fetch} or
 * {@code sendBeacon} that carries no {@code Content-Type} at all. So every state-changing call
 * under {@code /api/v1/admin} must
 *
 * <ul>
 *   <li>carry a JSON {@code Content-Type} (else 415, even with no body; DELETE, which has no body,
 *       excepted), and
 *   <li>carry the header {@value #HEADER} with any non-blank value (else 403 {@code
 *       operator-header-required}): a custom header makes a cross-site request need a CORS
 *       preflight, which this server never grants.
 * </ul>
 *
 * <p>A servlet filter, so that it runs after the container's authentication and role check and
 * before JAX-RS, hence before the idempotency filter could claim the request's key. The console's
 * actions are not HTTP calls to this API and are not affected.
 */
@WebFilter(urlPatterns = "/api/v1/admin/*", asyncSupported = true)
public class OperatorRequestGuard extends HttpFilter {

  /** The header a state-changing operator call must carry. */
  public static final String HEADER = "X-Requested-By";

  private static final long serialVersionUID = 1L;
  private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS");

  @Override
  protected void doFilter(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    if (SAFE_METHODS.contains(request.getMethod().toUpperCase(Locale.ROOT))) {
      chain.doFilter(request, response);
      return;
    }
    if (!"DELETE".equalsIgnoreCase(request.getMethod()) && !isJson(request.getContentType())) {
      refuse(
          response,
          new ProblemDetails(
              415,
              "unsupported-media-type",
              "Unsupported Media Type",
              "a state-changing operator call needs Content-Type: application/json, even without"
                  + " a body"));
      return;
    }
    String header = request.getHeader(HEADER);
    if (header == null || header.isBlank()) {
      refuse(
          response,
          new ProblemDetails(
              403,
              "operator-header-required",
              "Operator header required",
              "a state-changing operator call must carry the header "
                  + HEADER
                  + " (any value, e.g. banhang-console); nothing was done"));
      return;
    }
    chain.doFilter(request, response);
  }

  /** {@code application/json}, with or without parameters; no other type, no missing type. */
  static boolean isJson(String contentType) {
    if (contentType == null) {
      return false;
    }
    int parameters = contentType.indexOf(';');
    String type = parameters < 0 ? contentType : contentType.substring(0, parameters);
    return type.trim().equalsIgnoreCase("application/json");
  }

  private static void refuse(HttpServletResponse response, ProblemDetails problem)
      throws IOException {
    response.setStatus(problem.status());
    response.setContentType(ProblemDetails.MEDIA_TYPE);
    response.setCharacterEncoding("UTF-8");
    response.getOutputStream().write(problem.toJson());
  }
}
