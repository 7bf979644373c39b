package com.banhang.subscriber;

import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.StringReader;
import java.time.Instant;

/**
 * Where the shop sends its webhooks ({@code POST /subscriber/webhooks}), and what a developer or a
 * test reads back: the events handled ({@code GET /subscriber/events}) and every delivery as it
 * arrived ({@code GET /subscriber/deliveries}).
 */
@Path("/")
public class WebhookResource {

  @Inject SignatureCheck signatures;
  @Inject ReceivedEvents events;
  @Inject DeliveryLog log;

  /**
   * Reads the body as the exact bytes that were signed (never a parsed and re-written object),
   * checks the signature, then handles the event once. 204 for a handled event and for a duplicate
   * alike: the sender must stop retrying either way.
   */
  @POST
  @Path("webhooks")
  @Consumes(MediaType.WILDCARD)
  @Produces("application/problem+json")
  public Response receive(String body, @Context HttpHeaders headers) {
    String webhookId = headers.getHeaderString("webhook-id");
    String timestamp = headers.getHeaderString("webhook-timestamp");
    if (!signatures.verifies(body, headers.getRequestHeaders())) {
      return answered(
          webhookId, timestamp, problem(401, "the webhook's signature does not verify"));
    }
    JsonObject event;
    try {
      event = Json.createReader(new StringReader(body)).readObject();
    } catch (JsonException | IllegalStateException e) {
      return answered(webhookId, timestamp, problem(400, "the body is not a JSON object"));
    }
    int failure = log.failureFor(body);
    if (failure != 0) {
      return answered(webhookId, timestamp, problem(failure, "failing as a test asked"));
    }
    events.handle(event);
    return answered(webhookId, timestamp, Response.noContent().build());
  }

  private Response answered(String webhookId, String timestamp, Response response) {
    log.add(new DeliveryLog.Delivery(webhookId, timestamp, response.getStatus(), Instant.now()));
    return response;
  }

  private static Response problem(int status, String detail) {
    return Response.status(status)
        .type("application/problem+json")
        .entity(
            Json.createObjectBuilder()
                .add("type", "about:blank")
                .add("status", status)
                .add("detail", detail)
                .build()
                .toString())
        .build();
  }

  @GET
  @Path("events")
  @Produces(MediaType.APPLICATION_JSON)
  public String handled(@QueryParam("type") String type, @QueryParam("subject") String subject) {
    return events.list(type, subject).build().toString();
  }

  @GET
  @Path("deliveries")
  @Produces(MediaType.APPLICATION_JSON)
  public String deliveries(@QueryParam("webhookId") String webhookId) {
    JsonArrayBuilder all = Json.createArrayBuilder();
    for (DeliveryLog.Delivery d : log.of(webhookId)) {
      all.add(
          Json.createObjectBuilder()
              .add("webhookId", String.valueOf(d.webhookId()))
              .add("timestamp", String.valueOf(d.timestamp()))
              .add("answered", d.answered())
              .add("at", d.at().toString()));
    }
    return all.build().toString();
  }

  /** Makes the next deliveries fail, so that a test can watch the shop retry. */
  @POST
  @Path("faults")
  public Response failNext(
      @QueryParam("count") int count,
      @QueryParam("status") int status,
      @QueryParam("matching") String matching) {
    log.failNext(count, status == 0 ? 500 : status, matching);
    return Response.noContent().build();
  }
}
