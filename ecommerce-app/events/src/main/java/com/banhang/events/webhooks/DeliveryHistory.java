package com.banhang.events.webhooks;

import java.util.List;

/** A delivery and its attempts, oldest first. */
public record DeliveryHistory(WebhookDelivery delivery, List<DeliveryAttempt> attempts) {}
