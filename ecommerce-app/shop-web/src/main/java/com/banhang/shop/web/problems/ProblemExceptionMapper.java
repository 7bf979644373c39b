package com.banhang.shop.web.problems;

import com.banhang.idempotency.ProblemDetails;
import com.banhang.shop.orders.domain.model.MerchantOrderIdTakenException;
import com.banhang.shop.orders.domain.model.OrderAlreadyPaidException;
import com.banhang.shop.orders.domain.model.OrderNotFoundException;
import com.banhang.shop.payments.application.GatewayRefusedException;
import com.banhang.shop.payments.application.GatewayUnavailableException;
import com.banhang.shop.payments.application.GatewayWebhookRefusedException;
import com.banhang.shop.payments.application.GatewayWebhooksOffException;
import com.banhang.shop.payments.domain.model.PaymentAmountMismatchException;
import com.banhang.shop.payments.domain.model.PaymentInProgressException;
import com.banhang.shop.payments.domain.model.PaymentNotFoundException;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonException;
import jakarta.json.bind.JsonbException;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.ConstraintViolationException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.Comparator;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The one place where exceptions become problem responses (the idempotency library maps its own).
 * Nothing thrown ever reaches a client as a stack trace or an HTML page.
 */
@Provider
public class ProblemExceptionMapper implements ExceptionMapper<Throwable> {

  private static final Logger LOG = Logger.getLogger(ProblemExceptionMapper.class.getName());

  /**
   * Exceptions with a meaning for the client. The 4xx ones are business rejections: final decisions
   * that the idempotency library stores and replays under their key.
   */
  private static final Map<Class<? extends Throwable>, ProblemDetails> KNOWN =
      Map.of(
          OrderNotFoundException.class,
          new ProblemDetails(404, "order-not-found", "Order not found", ""),
          MerchantOrderIdTakenException.class,
          new ProblemDetails(409, "merchant-order-id-taken", "Merchant order id already used", ""),
          OrderAlreadyPaidException.class,
          new ProblemDetails(409, "order-already-paid", "Order already paid", ""),
          PaymentNotFoundException.class,
          new ProblemDetails(404, "payment-not-found", "Payment not found", ""),
          PaymentAmountMismatchException.class,
          new ProblemDetails(422, "payment-amount-mismatch", "Amount is not the order's total", ""),
          PaymentInProgressException.class,
          new ProblemDetails(409, "payment-in-progress", "Order already has a payment", ""),
          GatewayRefusedException.class,
          new ProblemDetails(
              422, "payment-method-rejected", "Payment refused by the processor", ""),
          // Certainly not charged: a 5xx, so the key is released and a retry runs again.
          GatewayUnavailableException.class,
          new ProblemDetails(503, "payment-gateway-unavailable", "Payment gateway unavailable", ""),
          GatewayWebhookRefusedException.class,
          new ProblemDetails(400, "webhook-refused", "Webhook refused", ""),
          GatewayWebhooksOffException.class,
          new ProblemDetails(404, "gateway-webhooks-off", "Gateway webhooks are off", ""));

  /**
   * Seconds a client is asked to wait after a 503 (the gateway or the database unavailable):
   * nothing was charged or committed, so the retry runs anew or finds the stored result. Half of
   * the gateway circuit breaker's 10 s delay: a retry after an open circuit is refused again at no
   * cost (nothing is sent), and one after a passing outage goes through.
   */
  static final String RETRY_AFTER_503 = "5";

  /**
   * How many causes are read: the wrappers seen (EclipseLink, JTA, the connection pool) are a few
   * deep; the bound keeps a cycle of causes, which {@link Throwable#initCause} allows, from looping
   * for ever.
   */
  private static final int MAX_CAUSES = 32;

  @Override
  public Response toResponse(Throwable thrown) {
    ProblemDetails problem = problemFor(thrown);
    Response response = problem.toResponse();
    return problem.status() == 503
        ? Response.fromResponse(response).header("Retry-After", RETRY_AFTER_503).build()
        : response;
  }

  static ProblemDetails problemFor(Throwable thrown) {
    boolean databaseFailed = false;
    int depth = 0;
    for (Throwable t = thrown; t != null && depth < MAX_CAUSES; t = t.getCause(), depth++) {
      databaseFailed |= DatabaseFailures.isPassing(t);
      ProblemDetails known = KNOWN.get(t.getClass());
      if (known != null) {
        return new ProblemDetails(known.status(), known.slug(), known.title(), t.getMessage());
      }
      if (t instanceof ConstraintViolationException invalid) {
        return invalidBody(invalid);
      }
      if (t instanceof JsonbException || t instanceof JsonException) {
        return new ProblemDetails(
            400,
            "malformed-request-body",
            "Malformed request body",
            "the body does not match the expected JSON shape");
      }
    }
    if (databaseFailed) {
      // Lost, refused or timed out: nothing the request wrote committed, or if its commit's answer
      // was lost, its key was completed with it; either way a retry with the same key is safe.
      LOG.log(Level.WARNING, "database unavailable; answered 503", thrown);
      return new ProblemDetails(
          503,
          "database-unavailable",
          "Database unavailable",
          "the database failed while the request ran; retry later, with the same Idempotency-Key"
              + " if it had one: the retry runs again or returns the stored result");
    }
    if (thrown instanceof WebApplicationException web) {
      return httpProblem(web.getResponse().getStatus());
    }
    LOG.log(Level.SEVERE, "unexpected failure", thrown);
    return new ProblemDetails(
        500, "internal-error", "Internal error", "the request failed; it may be retried");
  }

  static ProblemDetails httpProblem(int status) {
    Response.Status known = Response.Status.fromStatusCode(status);
    String title = known == null ? "HTTP " + status : known.getReasonPhrase();
    String slug = title.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9]+", "-");
    return new ProblemDetails(status, slug, title, title);
  }

  private static ProblemDetails invalidBody(ConstraintViolationException invalid) {
    JsonArrayBuilder errors = Json.createArrayBuilder();
    invalid.getConstraintViolations().stream()
        .sorted(Comparator.comparing(ProblemExceptionMapper::field))
        .forEach(
            v ->
                errors.add(
                    Json.createObjectBuilder()
                        .add("field", field(v))
                        .add("message", v.getMessage())));
    return new ProblemDetails(
            400,
            "invalid-request-body",
            "Invalid request body",
            "the body has "
                + invalid.getConstraintViolations().size()
                + " invalid field(s); fix them and retry with the same key")
        .with("errors", errors.build());
  }

  /** {@code create.request.items[0].<list element>.quantity} becomes {@code items[0].quantity}. */
  private static String field(ConstraintViolation<?> violation) {
    String path = violation.getPropertyPath().toString().replaceAll("\\.<[^>]+>", "");
    String[] methodParameterField = path.split("\\.", 3);
    return methodParameterField.length == 3 ? methodParameterField[2] : "body";
  }
}
