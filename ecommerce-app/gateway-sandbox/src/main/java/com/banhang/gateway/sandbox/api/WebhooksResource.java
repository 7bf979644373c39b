package com.banhang.gateway.sandbox.api;

import com.banhang.gateway.sandbox.charge.InvalidRequestException;
import com.banhang.gateway.sandbox.webhook.ChargeWebhookSettings;
import com.banhang.gateway.sandbox.webhook.WebhookService;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.StringReader;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;

/**
 * {@code /v1/webhooks}: what a processor's dashboard offers its merchant for webhooks. The events
 * with every attempt to deliver them, and the replay: one event again by its id, or every event
 * since a time. A resend carries the event's id and body unchanged, so a shop that already handled
 * the event recognises it. Protected like the charges API ({@link ApiKeyCheck}).
 */
@Path("/webhooks")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class WebhooksResource {

  static final int DEFAULT_LIMIT = 100;
  static final int MAX_LIMIT = 1000;

  private static final String INVALID_REQUEST = "invalid_request";

  @Inject WebhookService webhooks;

  /**
   * Events created at or after {@code since} (default: all), oldest first, at most {@code limit}.
   */
  @GET
  @Path("/events")
  public WebhookEventListJson list(
      @QueryParam("since") String since, @QueryParam("limit") String limit) {
    Instant from = since == null ? Instant.EPOCH : instant("since", since);
    List<WebhookEventJson> events =
        webhooks.list(from, limit(limit)).stream().map(WebhookEventJson::of).toList();
    return new WebhookEventListJson(webhooks.enabled(), events);
  }

  /** Whether the shop's endpoint is enabled: {@code {"enabled": true}}. */
  @GET
  @Path("/endpoint")
  public Map<String, Boolean> endpoint() {
    return Map.of("enabled", webhooks.endpointEnabled());
  }

  /**
   * Enables or disables the shop's endpoint, as a processor's dashboard does, with {@code
   * {"enabled": false}}: charges made while it is disabled record no event, so none is sent later.
   * A test that needs webhooks turns them on for itself.
   */
  @PUT
  @Path("/endpoint")
  @Consumes(MediaType.APPLICATION_JSON)
  public Response enableEndpoint(String body) {
    Boolean enabled = null;
    try (JsonReader reader = Json.createReader(new StringReader(body == null ? "" : body))) {
      JsonValue value = reader.readObject().get("enabled");
      if (value == JsonValue.TRUE) {
        enabled = true;
      } else if (value == JsonValue.FALSE) {
        enabled = false;
      }
    } catch (JsonException | ClassCastException e) {
      enabled = null;
    }
    if (enabled == null) {
      return Response.status(Response.Status.BAD_REQUEST)
          .entity(new ApiError(INVALID_REQUEST, "the body must be {\"enabled\": true|false}"))
          .build();
    }
    return Response.ok(Map.of("enabled", webhooks.enableEndpoint(enabled))).build();
  }

  /** One event with its attempts, or 404 {@code no_such_event}. */
  @GET
  @Path("/events/{id}")
  public Response find(@PathParam("id") String eventId) {
    return webhooks
        .find(eventId)
        .map(history -> Response.ok(WebhookEventJson.of(history)).build())
        .orElseGet(WebhooksResource::noSuchEvent);
  }

  /**
   * Sends one event again now and answers with its history, the resend last; 404 {@code
   * no_such_event}, or 409 {@code webhooks_off} without a URL to send to.
   */
  @POST
  @Path("/events/{id}/resend")
  public Response resend(@PathParam("id") String eventId) {
    if (!webhooks.enabled()) {
      return off();
    }
    return webhooks
        .resend(eventId)
        .map(history -> Response.ok(WebhookEventJson.of(history)).build())
        .orElseGet(WebhooksResource::noSuchEvent);
  }

  /**
   * Queues a resend of every event created at or after {@code since} (required, an ISO-8601
   * instant), oldest first, at most {@value WebhookService#MAX_RESEND}: 202 with the ids queued.
   */
  @POST
  @Path("/resend")
  public Response resendSince(@QueryParam("since") String since) {
    if (since == null || since.isBlank()) {
      throw new InvalidRequestException(
          INVALID_REQUEST, "since: required, an ISO-8601 instant such as 2026-12-07T10:00:00Z");
    }
    Instant from = instant("since", since);
    if (!webhooks.enabled()) {
      return off();
    }
    List<String> queued = webhooks.resendSince(from);
    return Response.accepted(new WebhookResendJson(from.toString(), queued)).build();
  }

  private static Instant instant(String name, String value) {
    try {
      return Instant.parse(value);
    } catch (DateTimeParseException e) {
      throw new InvalidRequestException(
          INVALID_REQUEST, name + ": must be an ISO-8601 instant such as 2026-12-07T10:00:00Z");
    }
  }

  private static int limit(String value) {
    if (value == null) {
      return DEFAULT_LIMIT;
    }
    try {
      int limit = Integer.parseInt(value);
      if (limit >= 1 && limit <= MAX_LIMIT) {
        return limit;
      }
    } catch (NumberFormatException e) {
      // Answered below, like a number out of range.
    }
    throw new InvalidRequestException(
        INVALID_REQUEST, "limit: must be a whole number from 1 to " + MAX_LIMIT);
  }

  private static Response noSuchEvent() {
    return ApiError.response(
        Response.Status.NOT_FOUND.getStatusCode(), "no_such_event", "no webhook event has this id");
  }

  private static Response off() {
    return ApiError.response(
        Response.Status.CONFLICT.getStatusCode(),
        "webhooks_off",
        "webhooks are off: " + ChargeWebhookSettings.URL + " is not set");
  }
}
