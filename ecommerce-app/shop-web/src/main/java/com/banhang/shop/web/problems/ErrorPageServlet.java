package com.banhang.shop.web.problems;

import com.banhang.idempotency.ProblemDetails;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Errors the container answers before the application runs (401 without credentials, 403 without
 * the role, unknown paths) become problem documents instead of the server's HTML pages.
 */
@WebServlet("/problem")
public class ErrorPageServlet extends HttpServlet {

  private static final long serialVersionUID = 1L;

  @Override
  protected void service(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
    int status = code instanceof Integer i ? i : HttpServletResponse.SC_NOT_FOUND;
    ProblemDetails problem = ProblemExceptionMapper.httpProblem(status);
    response.setStatus(status);
    response.setContentType(ProblemDetails.MEDIA_TYPE);
    response.setCharacterEncoding("UTF-8");
    response.getOutputStream().write(problem.toJson());
  }
}
