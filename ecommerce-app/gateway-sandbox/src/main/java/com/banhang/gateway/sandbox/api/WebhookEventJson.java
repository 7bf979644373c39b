package com.banhang.gateway.sandbox.api;

import com.banhang.gateway.sandbox.webhook.WebhookEvent;
import com.banhang.gateway.sandbox.webhook.WebhookEventHistory;
import com.banhang.gateway.sandbox.webhook.WebhookEventState;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import java.util.List;

/**
 * An event and its attempts as the webhook endpoints show them. The body the shop receives is not
 * repeated here; it is fixed by the charge ({@code GET /v1/charges/{chargeId}}).
 *
 * @param id {@code evt_...}, the {@code webhook-id} of every delivery
 * @param type {@code charge.succeeded} or {@code charge.failed}
 * @param chargeId the charge it is about
 * @param createdAt ISO-8601 instant in UTC
 * @param state {@code pending}, {@code delivered} or {@code failed}
 * @param nextAttemptAt when a pending event is due next, else null
 * @param attempts every attempt, in the order made
 */
@JsonbPropertyOrder({"id", "type", "chargeId", "createdAt", "state", "nextAttemptAt", "attempts"})
public record WebhookEventJson(
    String id,
    String type,
    String chargeId,
    String createdAt,
    String state,
    String nextAttemptAt,
    List<WebhookAttemptJson> attempts) {

  /** The API view of an event's history. */
  public static WebhookEventJson of(WebhookEventHistory history) {
    WebhookEvent event = history.event();
    return new WebhookEventJson(
        event.id(),
        event.type().wireName(),
        event.chargeId(),
        event.createdAt().toString(),
        event.state().wireName(),
        event.state() == WebhookEventState.PENDING ? event.nextAttemptAt().toString() : null,
        history.attempts().stream().map(WebhookAttemptJson::of).toList());
  }
}
