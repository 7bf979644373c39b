package com.banhang.gateway.sandbox.api;

import com.banhang.gateway.sandbox.charge.Charge;
import com.banhang.gateway.sandbox.charge.ChargeKeys;
import com.banhang.gateway.sandbox.charge.ChargeRequest;
import com.banhang.gateway.sandbox.charge.ChargeRequestReader;
import com.banhang.gateway.sandbox.charge.ChargeResult;
import com.banhang.gateway.sandbox.charge.ChargeService;
import com.banhang.gateway.sandbox.charge.ChargeStatus;
import com.banhang.gateway.sandbox.fault.DropMode;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.bind.Jsonb;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.IOException;

/**
 * {@code /v1/charges}: create a charge under an idempotency key, look a charge up by its key (how
 * the shop reconciles a charge whose outcome it never learnt) or by its id (how an operator
 * confirms a charge the key no longer finds).
 */
@Path("/charges")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class ChargesResource {

  /** The header a client sends its key in. */
  public static final String IDEMPOTENCY_KEY = "Idempotency-Key";

  /** Set to {@code true} on every answer that repeats a stored charge instead of creating one. */
  public static final String IDEMPOTENT_REPLAYED = "Idempotent-Replayed";

  /** HTTP 402: the card was declined. */
  static final int PAYMENT_REQUIRED = 402;

  @Inject ChargeService charges;

  @Inject ChargeRequestReader requestReader;

  @Inject Jsonb jsonb;

  /**
   * Creates a charge, or answers for the one the key already holds. The body is taken as text, so
   * that the sandbox (not the JSON provider) decides what a malformed body gets.
   */
  @POST
  public Response create(
      @HeaderParam(IDEMPOTENCY_KEY) String idempotencyKey,
      String body,
      @Context HttpServletResponse servletResponse)
      throws IOException {
    String key = ChargeKeys.require(idempotencyKey);
    ChargeRequest request = requestReader.read(body);
    ChargeResult result = charges.charge(key, request);

    if (result instanceof ChargeResult.Created created) {
      return chargeResponse(created.charge()).build();
    }
    if (result instanceof ChargeResult.Replayed replayed) {
      return chargeResponse(replayed.charge()).header(IDEMPOTENT_REPLAYED, "true").build();
    }
    if (result instanceof ChargeResult.KeyReused) {
      return ApiError.response(
          ApiError.UNPROCESSABLE_CONTENT,
          "idempotency_key_reused",
          "this Idempotency-Key was used for a different request (amount, currency, orderReference"
              + " or paymentMethod)");
    }
    if (result instanceof ChargeResult.InProgress) {
      return Response.fromResponse(
              ApiError.response(
                  Response.Status.CONFLICT.getStatusCode(),
                  "request_in_progress",
                  "another request with this Idempotency-Key is being processed"))
          .header("Retry-After", "1")
          .build();
    }
    if (result instanceof ChargeResult.ProcessorUnavailable) {
      return ApiError.response(
          Response.Status.SERVICE_UNAVAILABLE.getStatusCode(),
          "processor_unavailable",
          "injected fault: the processor failed before charging; nothing was charged");
    }
    if (result instanceof ChargeResult.RequestLost lost) {
      // Nothing was charged, but the answer is the one a lost response gets: the client cannot
      // tell.
      return lostAnswer(lost.notCreated(), lost.mode(), servletResponse);
    }
    ChargeResult.ResponseDropped dropped = (ChargeResult.ResponseDropped) result;
    return lostAnswer(dropped.charge(), dropped.mode(), servletResponse);
  }

  /** The charge a key holds (succeeded or declined), or 404 {@code no_such_charge}. */
  @GET
  public Response findByKey(@QueryParam("idempotencyKey") String idempotencyKey) {
    String key = ChargeKeys.require(idempotencyKey);
    return charges
        .findByKey(key)
        .map(charge -> Response.ok(ChargeJson.of(charge)).build())
        .orElseGet(
            () ->
                ApiError.response(
                    Response.Status.NOT_FOUND.getStatusCode(),
                    "no_such_charge",
                    "no charge holds this Idempotency-Key (never charged, or older than the key retention)"));
  }

  /**
   * A charge by its id (succeeded or declined), or 404 {@code no_such_charge}. Unlike the lookup by
   * key it does not end with the key retention, so an operator can check a charge id a customer or
   * the processor's dashboard gave them after the shop's key lookup stopped finding it.
   */
  @GET
  @Path("/{id}")
  public Response findById(@PathParam("id") String chargeId) {
    return charges
        .findById(chargeId)
        .map(charge -> Response.ok(ChargeJson.of(charge)).build())
        .orElseGet(
            () ->
                ApiError.response(
                    Response.Status.NOT_FOUND.getStatusCode(),
                    "no_such_charge",
                    "no charge has this id"));
  }

  /**
   * The answer of a lost request or response: 504 with an empty body, or (mode {@code RESET}) the
   * start of the answer {@code charge} would get, broken off; then {@code null}, as the response is
   * already committed.
   */
  private Response lostAnswer(Charge charge, DropMode mode, HttpServletResponse servletResponse)
      throws IOException {
    if (mode == DropMode.GATEWAY_TIMEOUT) {
      // Empty body, like a proxy that gave up waiting: the client learns nothing about the charge.
      return Response.status(Response.Status.GATEWAY_TIMEOUT).build();
    }
    ConnectionAbort.abort(servletResponse, statusOf(charge), jsonb.toJson(ChargeJson.of(charge)));
    return null;
  }

  private static Response.ResponseBuilder chargeResponse(Charge charge) {
    return Response.status(statusOf(charge))
        .type(MediaType.APPLICATION_JSON_TYPE)
        .entity(ChargeJson.of(charge));
  }

  private static int statusOf(Charge charge) {
    return charge.status() == ChargeStatus.SUCCEEDED
        ? Response.Status.CREATED.getStatusCode()
        : PAYMENT_REQUIRED;
  }
}
