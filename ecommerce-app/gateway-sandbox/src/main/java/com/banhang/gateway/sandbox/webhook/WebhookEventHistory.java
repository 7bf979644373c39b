package com.banhang.gateway.sandbox.webhook;

import java.util.List;

/**
 * An event and every attempt to deliver it, as the replay endpoints list them.
 *
 * @param event the event
 * @param attempts its attempts, in the order they were made
 */
public record WebhookEventHistory(WebhookEvent event, List<WebhookAttempt> attempts) {}
